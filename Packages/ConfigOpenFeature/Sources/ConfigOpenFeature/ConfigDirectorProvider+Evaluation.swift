#if OpenFeature
@_spi(Internal) internal import ConfigClient
@_spi(Internal) internal import ConfigModel
public import Logging
public import OpenFeature

/// Evaluation: synchronous, from the client's memory, never throwing. A value that cannot be served
/// resolves to `defaultValue` with an error code and a message (and `reason` `error`), logged at debug
/// level through OpenFeature's logger; every resolution carries a reason and `flagMetadata`.
extension ConfigDirectorProvider {
    /// A boolean config's value, or `defaultValue`; a served value carries its value id as `variant`.
    public func getBooleanEvaluation(
        key: String,
        defaultValue: Bool,
        context: (any EvaluationContext)?,
        logger: Logger?
    ) -> ProviderEvaluation<Bool> {
        Self.evaluation(lifecycle.client.resolution(for: key, default: defaultValue), key: key, logger: logger)
    }

    /// A string or enum config's value, or `defaultValue`.
    public func getStringEvaluation(
        key: String,
        defaultValue: String,
        context: (any EvaluationContext)?,
        logger: Logger?
    ) -> ProviderEvaluation<String> {
        Self.evaluation(lifecycle.client.resolution(for: key, default: defaultValue), key: key, logger: logger)
    }

    /// A number config's value as an `Int64`: exact 64-bit text first, else truncated toward zero;
    /// out of range gives `defaultValue` with `parseError`.
    public func getIntegerEvaluation(
        key: String,
        defaultValue: Int64,
        context: (any EvaluationContext)?,
        logger: Logger?
    ) -> ProviderEvaluation<Int64> {
        let resolution = lifecycle.client.resolution(for: key, default: OpenFeatureInteger(defaultValue))
        let details = ResolutionDetails(resolution, key: key, requestedType: "Int64")
        details.log(to: logger)
        return details.evaluation(resolution.value.value, variant: resolution.valueID)
    }

    /// A number config's value as a `Double`, or `defaultValue`.
    public func getDoubleEvaluation(
        key: String,
        defaultValue: Double,
        context: (any EvaluationContext)?,
        logger: Logger?
    ) -> ProviderEvaluation<Double> {
        Self.evaluation(lifecycle.client.resolution(for: key, default: defaultValue), key: key, logger: logger)
    }

    /// A JSON config's document: an object as `.structure`, an array as `.list`; otherwise
    /// `defaultValue`, with `typeMismatch` for another document or config type.
    public func getObjectEvaluation(
        key: String,
        defaultValue: Value,
        context: (any EvaluationContext)?,
        logger: Logger?
    ) -> ProviderEvaluation<Value> {
        let resolution = lifecycle.client.resolution(
            for: key,
            as: JSONValue.self,
            default: .null,
            defaultText: String(describing: defaultValue)
        )
        let isStructured: Bool
        switch resolution.value {
        case .dictionary, .array: isStructured = true
        default: isStructured = false
        }
        let served = resolution.reason == .foundMatch && isStructured
        let details = ResolutionDetails(
            resolution, key: key, requestedType: "an object or a list", notStructured: !isStructured)
        details.log(to: logger)
        return details.evaluation(served ? Self.value(of: resolution.value) : defaultValue, variant: resolution.valueID)
    }

    // The logger-less methods, which OpenFeature 0.6 will remove before 1.0, forward to the ones above.

    /// ``getBooleanEvaluation(key:defaultValue:context:logger:)`` without a logger.
    public func getBooleanEvaluation(
        key: String,
        defaultValue: Bool,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<Bool> {
        getBooleanEvaluation(key: key, defaultValue: defaultValue, context: context, logger: nil)
    }

    /// ``getStringEvaluation(key:defaultValue:context:logger:)`` without a logger.
    public func getStringEvaluation(
        key: String,
        defaultValue: String,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<String> {
        getStringEvaluation(key: key, defaultValue: defaultValue, context: context, logger: nil)
    }

    /// ``getIntegerEvaluation(key:defaultValue:context:logger:)`` without a logger.
    public func getIntegerEvaluation(
        key: String,
        defaultValue: Int64,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<Int64> {
        getIntegerEvaluation(key: key, defaultValue: defaultValue, context: context, logger: nil)
    }

    /// ``getDoubleEvaluation(key:defaultValue:context:logger:)`` without a logger.
    public func getDoubleEvaluation(
        key: String,
        defaultValue: Double,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<Double> {
        getDoubleEvaluation(key: key, defaultValue: defaultValue, context: context, logger: nil)
    }

    /// ``getObjectEvaluation(key:defaultValue:context:logger:)`` without a logger.
    public func getObjectEvaluation(
        key: String,
        defaultValue: Value,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<Value> {
        getObjectEvaluation(key: key, defaultValue: defaultValue, context: context, logger: nil)
    }

    private static func evaluation<Served>(
        _ resolution: ServedResolution<Served>,
        key: String,
        logger: Logger?
    ) -> ProviderEvaluation<Served> {
        let details = ResolutionDetails(resolution, key: key, requestedType: String(describing: Served.self))
        details.log(to: logger)
        return details.evaluation(resolution.value, variant: resolution.valueID)
    }
}

#endif
