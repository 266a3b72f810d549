import ConfigDirector
import Foundation

// The documentation of `ConfigDirectorHook` (README points to it): a hook that times evaluations.
struct EvaluationTimer: ConfigDirectorHook {
    func beforeEvaluation(_ evaluation: EvaluationHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData
    {
        data.merging(["start": ProcessInfo.processInfo.systemUptime]) { $1 }
    }

    func afterEvaluation(
        _ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData
    ) throws {
        guard let start = data["start"] as? TimeInterval else { return }
        let seconds = ProcessInfo.processInfo.systemUptime - start
        print("\(evaluation.key): \(result.reason.rawValue) in \(seconds) s")
    }
}

func timedClient() throws -> ConfigDirectorClient {
    try ConfigDirectorClient(
        options: ConfigDirectorClientOptions(connection: ConnectionOptions(mode: .offline), hooks: [EvaluationTimer()])
    )
}
