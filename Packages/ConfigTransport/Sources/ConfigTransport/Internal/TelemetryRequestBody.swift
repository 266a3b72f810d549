@_spi(Internal) internal import ConfigModel

/// The whole body of a telemetry request (PROTOCOL §6).
struct TelemetryRequestBody: Encodable, Sendable {
    let clientSDKKey: String
    let metaContext: MetaContext
    let batch: TelemetryBatch

    private enum CodingKeys: String, CodingKey {
        case clientSDKKey = "clientSdkKey"
        case metaContext, context, discreteEvents, aggregatedEvents, droppedEvents
    }

    private enum EventKindKeys: String, CodingKey {
        case evaluatedConfig
    }

    private struct EmptyObject: Encodable {}

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(clientSDKKey, forKey: .clientSDKKey)
        try container.encode(metaContext, forKey: .metaContext)
        try container.encodeIfPresent(batch.context, forKey: .context)
        try container.encode(EmptyObject(), forKey: .discreteEvents)
        var aggregated = container.nestedContainer(keyedBy: EventKindKeys.self, forKey: .aggregatedEvents)
        try aggregated.encode(batch.evaluatedConfigs, forKey: .evaluatedConfig)
        var dropped = container.nestedContainer(keyedBy: EventKindKeys.self, forKey: .droppedEvents)
        try dropped.encode(batch.droppedEvaluatedConfigCount, forKey: .evaluatedConfig)
    }
}
