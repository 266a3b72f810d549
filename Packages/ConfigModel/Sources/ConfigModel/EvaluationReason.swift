// For the SDK's maintainers, the rule two caches of the client rely on: a reason depends only on the config's
// revision (its type and value as served), the context, the requested type and the default's text. Each lock stripe
// of ConfigClient keeps the reason of a read for the next read like it: `TelemetryCache` counts an evaluation under
// the reason of the last one of its key with the same `TelemetryCache.Likeness` (revision, context generation,
// requested type, default text), and `DecodedValues` keeps a JSON read's reason with its decode (by revision and
// type). A reason that depended on anything else would be served and counted stale, with nothing to tell.
// `TelemetryCountingTests.reasonsAgreeWithFreshClients` checks the caches against clients that never read before.

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
