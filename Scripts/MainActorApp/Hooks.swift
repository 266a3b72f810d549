import ConfigDirector

// README, "Evaluation hooks".
nonisolated protocol TracingSpan: Sendable {
    func addEvent(_ name: String, attributes: [String: String])
}

nonisolated protocol Tracer: Sendable {
    var activeSpan: (any TracingSpan)? { get }
}

struct SpanHook: ConfigDirectorHook {
    let tracer: any Tracer

    func afterEvaluation(
        _ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData
    ) throws {
        tracer.activeSpan?.addEvent(
            "feature_flag.evaluation",
            attributes: [
                "feature_flag.key": result.key,
                "feature_flag.result.reason": result.reason.rawValue,
                "feature_flag.result.value_id": result.valueID ?? "",
            ]
        )
    }
}

func tracedClient(tracer: any Tracer) throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(hooks: [SpanHook(tracer: tracer)])
    )
    return client
}

// README, "Bundled values".
func bundledClient() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(bundledValues: .resource(named: "configdirector-defaults"))
    )
    return client
}
