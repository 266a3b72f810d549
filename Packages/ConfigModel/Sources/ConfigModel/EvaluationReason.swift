/// Why an evaluation returned the value it did.
public enum EvaluationReason: String, Sendable, Hashable, CaseIterable {
    /// The config evaluated from the server's targeting rules.
    case foundMatch
    /// The key was not in the config state the server sent; the client is ready.
    case configStateMissing
    /// The key is not known because the client has no config state yet.
    case clientNotReady
    /// The config had no value (null or empty) for the context.
    case valueMissing
    /// The config was read as a number but its value is not a finite decimal number.
    case invalidNumber
    /// The config was read as a boolean but its value is not `true` or `false`.
    case invalidBoolean
    /// The config was read as a `Decodable` type but its document did not decode into it.
    case invalidJSON
    /// The config's type cannot be read as the requested type.
    case typeMismatch

    /// The name telemetry reports the reason under, such as `found-match`.
    public var telemetryName: String {
        switch self {
        case .foundMatch: "found-match"
        case .configStateMissing: "config-state-missing"
        case .clientNotReady: "client-not-ready"
        case .valueMissing: "value-missing"
        case .invalidNumber: "invalid-number"
        case .invalidBoolean: "invalid-boolean"
        case .invalidJSON: "invalid-json"
        case .typeMismatch: "type-mismatch"
        }
    }

    /// Whether the reason means the caller's default value was returned.
    public var usesDefaultValue: Bool { self != .foundMatch }
}
