public import ConfigModel

/// A ``ConfigEvaluation`` apart from its key and value: what the core's detail read returns, and the
/// app's build (the public detail reads are inlined into it) makes a ``ConfigEvaluationDetail`` of.
///
/// It is not generic and holds no `ConfigEvaluationValue`, so that a detail read wraps no value in an
/// existential and makes no generic type at run time; it fits in the registers a function returns in.
/// The default was returned unless the reason is ``EvaluationReason/foundMatch``.
@usableFromInline
struct EvaluationParts: Sendable {
    @usableFromInline let valueID: String?
    @usableFromInline let context: ConfigDirectorContext?
    @usableFromInline let reason: EvaluationReason
    @usableFromInline let source: ConfigEvaluation.Source

    init(valueID: String?, context: ConfigDirectorContext?, reason: EvaluationReason, source: ConfigEvaluation.Source) {
        self.valueID = valueID
        self.context = context
        self.reason = reason
        self.source = source
    }

    /// Whether the default was returned.
    @inlinable var isDefaultValue: Bool { reason != .foundMatch }

    /// The evaluation of `key` that returned `value` with these parts.
    func evaluation(key: String, value: ConfigEvaluationValue) -> ConfigEvaluation {
        ConfigEvaluation(
            key: key, value: value, valueID: valueID, isDefaultValue: isDefaultValue, context: context,
            reason: reason, source: source)
    }

    /// The detail of a read of `key` that returned `value` with these parts.
    @inlinable
    func detail<Value>(key: String, value: Value) -> ConfigEvaluationDetail<Value> {
        ConfigEvaluationDetail(
            value: value, key: key, valueID: valueID, context: context, reason: reason, source: source)
    }
}
