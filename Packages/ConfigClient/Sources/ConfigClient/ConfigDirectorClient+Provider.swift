@_spi(Internal) public import ConfigModel

/// A value an evaluation returned, with the id of the value served, the reason and where the values
/// came from: what the OpenFeature provider reports as a resolution's `variant`, `reason`, error code
/// and `flagMetadata`.
@_spi(Internal) public struct ServedResolution<Value: Sendable>: Sendable {
    /// The value returned: the served value, or the caller's default.
    public var value: Value
    /// The served value's id (PROTOCOL §7), or `nil` when the default value was returned.
    public var valueID: String?
    /// Why the evaluation returned what it did.
    public var reason: EvaluationReason
    /// Where the values evaluated came from, read together with the config.
    public var source: ConfigValueSource
    /// The type of the config read, or `nil` when the client does not hold the key.
    public var configType: ConfigType?

    init(_ evaluated: Evaluated<Value>, core: ClientCore) {
        let outcome = evaluated.outcome
        value = evaluated.value
        reason = outcome.reason
        valueID = outcome.reason == .foundMatch ? core.servedValueID(outcome) : nil
        source = outcome.source
        configType = outcome.state?.type
    }
}

extension ConfigDirectorClient {
    /// Creates a client that reports itself with another `sdkName` on the wire and in telemetry
    /// (PROTOCOL §2 `metaContext.sdkName`), as the OpenFeature provider's client does.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key; ignored in `.offline` mode.
    ///   - options: The client's options.
    ///   - sdkName: The `sdkName` sent, such as `ConfigDirectorSDK.openFeatureProviderSDKName`.
    /// - Throws: As ``init(clientSDKKey:options:)`` and ``init(options:)``.
    @_spi(Internal)
    public convenience init(
        clientSDKKey: String,
        options: ConfigDirectorClientOptions,
        sdkName: String
    ) throws(ConfigDirectorError) {
        try self.init(clientSDKKey: clientSDKKey, options: options, environment: ClientEnvironment(sdkName: sdkName))
    }

    /// Evaluates `key` as `value(for:default:)` does (the same conversions, telemetry and
    /// `evaluations`), and also returns the id of the value served.
    /// - Parameters:
    ///   - key: The config key.
    ///   - defaultValue: The value returned when the config cannot be served; it sets the type read.
    /// - Returns: The value and, when it was served, its id.
    @_spi(Internal)
    public func resolution<Value: ConfigValue>(for key: String, default defaultValue: Value) -> ServedResolution<Value>
    {
        let evaluated = core.evaluated(for: key, default: defaultValue)
        return ServedResolution(evaluated, core: core)
    }

    /// Decodes the JSON config `key` as `value(for:as:default:)` does, and also returns the id of
    /// the value served.
    /// - Parameters:
    ///   - key: The config key.
    ///   - type: The `Decodable` type to decode the document as.
    ///   - defaultValue: The value returned when the config is missing, not JSON, or does not decode.
    ///   - defaultText: The default value as telemetry reports it.
    /// - Returns: The value and, when it was served, its id.
    @_spi(Internal)
    public func resolution<Value: Decodable & Sendable>(
        for key: String,
        as type: Value.Type,
        default defaultValue: Value,
        defaultText: String
    ) -> ServedResolution<Value> {
        let evaluated = core.evaluated(forJSON: key, default: defaultValue, defaultText: defaultText)
        return ServedResolution(evaluated, core: core)
    }

    /// The refusal for good (a 4xx other than 429, PROTOCOL §4) that stopped the newest connect of
    /// `initialize`, `updateContext` or `resumeNetwork`, or `nil`: cleared when the next connect begins.
    @_spi(Internal)
    public var refusal: ConfigDirectorError? { core.refusal }
}
