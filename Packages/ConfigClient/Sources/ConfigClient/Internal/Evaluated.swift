internal import ConfigModel

/// One evaluation's result before it is reported: what `value(for:)` returns and what telemetry
/// and the `evaluations` stream are told.
struct Evaluated<Value: Sendable>: Sendable {
    let key: String
    let value: Value
    let reason: EvaluationReason
    /// The config the value was read from, or `nil` when the key is missing.
    let state: ConfigState?
    let context: ConfigDirectorContext?
}
