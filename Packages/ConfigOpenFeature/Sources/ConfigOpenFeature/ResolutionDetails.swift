#if OpenFeature
@_spi(Internal) internal import ConfigClient
@_spi(Internal) internal import ConfigModel
internal import Logging
internal import OpenFeature

/// What a resolution reports besides its value: the reason, the error code and message, and the
/// metadata, decided from the client's evaluation (see the mapping in the module's documentation).
struct ResolutionDetails {
    /// The metadata key of the served value's id.
    static let valueIDKey = "valueId"
    /// The metadata key of where the values came from: `live`, `kept`, `bundled`, or `none`.
    static let valueSourceKey = "valueSource"

    var reason: String
    var errorCode: ErrorCode?
    var errorMessage: String?
    var flagMetadata: [String: FlagMetadataValue]

    /// The details of an evaluation of `key` as `requestedType` that ended for `reason`.
    /// - Parameters:
    ///   - notStructured: Whether a JSON document was served that is neither an object nor an array,
    ///     which `getObjectValue` cannot return.
    init<Served>(
        _ resolution: ServedResolution<Served>,
        key: String,
        requestedType: String,
        notStructured: Bool = false
    ) {
        flagMetadata = [Self.valueSourceKey: .string(Self.text(of: resolution.source))]
        switch resolution.reason {
        case .foundMatch where !notStructured:
            reason = Self.reason(ofServedFrom: resolution.source)
            if let valueID = resolution.valueID { flagMetadata[Self.valueIDKey] = .string(valueID) }
        case .valueMissing:
            reason = Reason.defaultReason.rawValue
        default:
            reason = Reason.error.rawValue
            (errorCode, errorMessage) = Self.failure(resolution, key: key, requestedType: requestedType)
        }
    }

    /// The error code and message of an evaluation that returned the default value for want of one.
    private static func failure<Served>(
        _ resolution: ServedResolution<Served>,
        key: String,
        requestedType: String
    ) -> (ErrorCode, String) {
        let configType = resolution.configType?.rawValue ?? "unknown"
        let returned = "; the default value was returned."
        switch resolution.reason {
        case .foundMatch, .valueMissing:
            return (
                .typeMismatch,
                "The JSON document of the config '\(key)' is neither an object nor an array, so it cannot be "
                    + "read as \(requestedType)" + returned
            )
        case .configStateMissing:
            return (.flagNotFound, "The config '\(key)' is not in the config state ConfigDirector sent" + returned)
        case .clientNotReady:
            return (
                .providerNotReady,
                "The config '\(key)' was read as \(requestedType) before any config state arrived" + returned
            )
        case .typeMismatch:
            return (
                .typeMismatch,
                "The config '\(key)' is of type \(configType) and cannot be read as \(requestedType)" + returned
            )
        case .invalidNumber, .invalidBoolean, .invalidJSON:
            return (
                .parseError,
                "The value of the config '\(key)' (of type \(configType)) cannot be parsed as \(requestedType)"
                    + returned
            )
        }
    }

    /// Logs an error at debug level through OpenFeature's logger: a read that returned the default value.
    func log(to logger: Logger?) {
        guard let logger, let errorMessage, let errorCode else { return }
        logger.debug("ConfigDirectorProvider: \(errorMessage) (\(errorCode))")
    }

    /// The reason of a served value: `cached` for values kept on the device, `staticReason` for bundled
    /// values and local overrides (set on the device, not evaluated by the service), and `unknown` for live
    /// values (the service evaluated them; the SDK is not told why).
    private static func reason(ofServedFrom source: ConfigValueSource) -> String {
        switch source {
        case .keptValues: Reason.cached.rawValue
        case .bundledValues, .override: Reason.staticReason.rawValue
        default: Reason.unknown.rawValue
        }
    }

    /// The `valueSource` of the flag metadata: `none`, `bundled`, `kept`, `live` or `override`.
    private static func text(of source: ConfigValueSource) -> String {
        switch source {
        case .bundledValues: "bundled"
        case .keptValues: "kept"
        case .live: "live"
        case .override: "override"
        default: "none"
        }
    }

    /// A resolution of `value` with these details and the served value's id as its variant.
    func evaluation<Value>(_ value: Value, variant: String?) -> ProviderEvaluation<Value> {
        ProviderEvaluation(
            value: value, flagMetadata: flagMetadata, variant: errorCode == nil ? variant : nil, reason: reason,
            errorCode: errorCode, errorMessage: errorMessage)
    }
}
#endif
