@_spi(Internal) public import ConfigModel

/// What one evaluation reported to telemetry: identical ones are aggregated (PROTOCOL §6).
@_spi(Internal) public struct TelemetryEvaluationEvent: Sendable, Hashable, Encodable {
    /// The id of the context evaluated for, if it has one.
    public var contextID: String?
    /// The config key.
    public var key: String
    /// The config's type, or `nil` when the config was not found.
    public var type: ConfigType?
    /// The caller's default value.
    public var defaultValue: TelemetryValue
    /// The Swift type's name the value was requested as, such as `Bool` or `Theme`.
    public var requestedType: String
    /// The value returned.
    public var evaluatedValue: TelemetryValue
    /// The id of the served value, or `nil` when the default was used.
    public var evaluatedValueID: String?
    /// Whether the default value was returned.
    public var usedDefault: Bool
    /// Why the evaluation returned what it did; sent by its telemetry name.
    public var reason: EvaluationReason

    /// Creates an event.
    /// - Parameters:
    ///   - contextID: The context's id.
    ///   - key: The config key.
    ///   - type: The config's type, or `nil` when not found.
    ///   - defaultValue: The caller's default value.
    ///   - requestedType: The Swift type's name.
    ///   - evaluatedValue: The value returned.
    ///   - evaluatedValueID: The served value's id, `nil` when the default was used.
    ///   - usedDefault: Whether the default was returned.
    ///   - reason: Why.
    public init(
        contextID: String?,
        key: String,
        type: ConfigType?,
        defaultValue: TelemetryValue,
        requestedType: String,
        evaluatedValue: TelemetryValue,
        evaluatedValueID: String?,
        usedDefault: Bool,
        reason: EvaluationReason
    ) {
        self.contextID = contextID
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.requestedType = requestedType
        self.evaluatedValue = evaluatedValue
        self.evaluatedValueID = evaluatedValueID
        self.usedDefault = usedDefault
        self.reason = reason
    }

    private enum CodingKeys: String, CodingKey {
        case contextID = "contextId"
        case key, type, defaultValue, requestedType, evaluatedValue
        case evaluatedValueID = "evaluatedValueId"
        case usedDefault, evaluationReason
    }

    /// Encodes the wire form; `contextId`, `type` and `evaluatedValueId` are omitted when `nil`.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(contextID, forKey: .contextID)
        try container.encode(key, forKey: .key)
        try container.encodeIfPresent(type?.rawValue, forKey: .type)
        try container.encode(defaultValue, forKey: .defaultValue)
        try container.encode(requestedType, forKey: .requestedType)
        try container.encode(evaluatedValue, forKey: .evaluatedValue)
        try container.encodeIfPresent(evaluatedValueID, forKey: .evaluatedValueID)
        try container.encode(usedDefault, forKey: .usedDefault)
        try container.encode(reason.rawValue, forKey: .evaluationReason)
    }
}
