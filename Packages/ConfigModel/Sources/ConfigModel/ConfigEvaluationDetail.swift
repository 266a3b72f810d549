/// A config's value and its evaluation, from one read: what `evaluation(for:default:)` returns.
///
/// ```swift
/// let detail = client.evaluation(for: "dark-mode", default: false)
/// if detail.evaluation.isDefaultValue {
///     print("dark-mode fell back to its default: \(detail.evaluation.reason.rawValue)")
/// }
/// ```
public struct ConfigEvaluationDetail<Value> {
    /// The value read: the served value, or the default.
    public let value: Value
    /// The evaluation of the read, as `evaluations` publishes it: its reason, value id, source, and
    /// whether it is the default.
    public let evaluation: ConfigEvaluation

    /// Creates a detail.
    /// - Parameters:
    ///   - value: The value read.
    ///   - evaluation: Its evaluation.
    @inlinable
    public init(value: Value, evaluation: ConfigEvaluation) {
        self.value = value
        self.evaluation = evaluation
    }
}

extension ConfigEvaluationDetail: Sendable where Value: Sendable {}

extension ConfigEvaluationDetail: Equatable where Value: Equatable {}
