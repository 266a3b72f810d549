@_spi(Internal) internal import ConfigModel

/// One evaluation's result before it is reported: the value that `values(for:)` yields, and what
/// telemetry and the `evaluations` stream are told.
struct Evaluated<Value: Sendable>: Sendable {
    let value: Value
    let outcome: EvaluationOutcome
}
