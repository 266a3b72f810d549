import ConfigDirector
import Foundation

// The documentation of `ConfigDirectorHook` (README points to it): a hook that times evaluations.
struct EvaluationTimer: ConfigDirectorHook {
    func beforeEvaluation(_ evaluation: EvaluationHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData
    {
        data.merging(["start": Date()]) { $1 }
    }

    func afterEvaluation(
        _ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData
    ) throws {
        guard let start = data["start"] as? Date else { return }
        let seconds = Date().timeIntervalSince(start)
        print("\(evaluation.key): \(result.reason.rawValue) in \(seconds) s")
    }
}

func timedClient() throws -> ConfigDirectorClient {
    try ConfigDirectorClient(
        options: ConfigDirectorClientOptions(connection: ConnectionOptions(mode: .offline), hooks: [EvaluationTimer()])
    )
}
