/// Why an evaluation returned the value it did; its raw value is the kebab-case name telemetry
/// reports, such as `found-match`.
public enum EvaluationReason: String, Sendable, Hashable, CaseIterable {
    /// The config evaluated from the server's targeting rules.
    case foundMatch = "found-match"
    /// The key was not in the config state the server sent; the client is ready.
    case configStateMissing = "config-state-missing"
    /// The key is not known because the client has no config state yet.
    case clientNotReady = "client-not-ready"
    /// The config had no value (null or empty) for the context.
    case valueMissing = "value-missing"
    /// The config was read as a number but its value is not a finite decimal number.
    case invalidNumber = "invalid-number"
    /// The config was read as a boolean but its value is not `true` or `false`.
    case invalidBoolean = "invalid-boolean"
    /// The config was read as a `Decodable` type but its document did not decode into it.
    case invalidJSON = "invalid-json"
    /// The config's type cannot be read as the requested type.
    case typeMismatch = "type-mismatch"
}
