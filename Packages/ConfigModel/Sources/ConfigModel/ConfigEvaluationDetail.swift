/// A config's value and its evaluation, from one read: what `evaluation(for:default:)` returns.
///
/// ```swift
/// let detail = client.evaluation(for: "dark-mode", default: false)
/// if detail.evaluation.isDefaultValue {
///     print("dark-mode fell back to its default: \(detail.evaluation.reason.rawValue)")
/// }
/// ```
///
/// A detail holds the value and the parts of its evaluation apart; ``evaluation`` puts them together
/// when it is read, so that a read that only looks at the value costs about what `value(for:default:)`
/// does.
public struct ConfigEvaluationDetail<Value> {
    /// The value read: the served value, or the default.
    public let value: Value
    /// The evaluation apart from its value.
    @usableFromInline let parts: Parts

    /// An evaluation apart from its value and from whether it is the default (it is unless the reason
    /// is ``EvaluationReason/foundMatch``).
    ///
    /// It is the payload of a one-case enum, not a struct's fields, because of how the compiler (Swift
    /// 6.3) releases a generic struct of the app's type: one that takes more registers than a few, its
    /// pass for large loadable types moves to memory and releases through the struct's generic value
    /// witnesses at run time, which cost a detail read of a `Bool` about a tenth of a plain read
    /// (benchmark 9). The enum keeps a detail of a `Bool` under that size; one of a `String` is still over
    /// it (its read takes 1.16–1.29x a plain read), as it is with the value in the enum or the enum out of
    /// the generic type. The source is held as its storage, an enum: the ``ConfigEvaluation/Source`` struct itself
    /// in the payload took a detail read of a `Bool` from 1.13x a plain read to 1.25x.
    @usableFromInline
    enum Parts: Sendable, Equatable {
        case parts(
            key: String,
            valueID: String?,
            context: ConfigDirectorContext?,
            reason: EvaluationReason,
            source: ConfigEvaluation.Source.Storage
        )
    }

    /// Creates a detail from a value and the parts of its evaluation, as ``ConfigEvaluation``'s
    /// initializer takes them; the evaluation is of the default unless `reason` is
    /// ``EvaluationReason/foundMatch``.
    /// - Parameters:
    ///   - value: The value read.
    ///   - key: The config key.
    ///   - valueID: The served value's id, or `nil` for a default value.
    ///   - context: The context evaluated against.
    ///   - reason: Why.
    ///   - source: Where the value came from.
    @inlinable
    public init(
        value: Value,
        key: String,
        valueID: String?,
        context: ConfigDirectorContext?,
        reason: EvaluationReason,
        source: ConfigEvaluation.Source
    ) {
        self.value = value
        parts = .parts(key: key, valueID: valueID, context: context, reason: reason, source: source.storage)
    }

    /// Creates a detail from a value and its evaluation.
    /// - Parameters:
    ///   - value: The value read; the detail's ``evaluation`` reports it as its value.
    ///   - evaluation: Its evaluation, which is of the default unless its reason is
    ///     ``EvaluationReason/foundMatch``.
    @inlinable
    public init(value: Value, evaluation: ConfigEvaluation) {
        self.init(
            value: value, key: evaluation.key, valueID: evaluation.valueID, context: evaluation.context,
            reason: evaluation.reason, source: evaluation.source)
    }
}

extension ConfigEvaluationDetail where Value: Sendable {
    /// The evaluation of the read, as `evaluations` publishes it: its reason, value id, source, and
    /// whether it is the default; its value is ``value``.
    @inlinable
    public var evaluation: ConfigEvaluation {
        switch parts {
        case .parts(let key, let valueID, let context, let reason, let source):
            ConfigEvaluation(
                key: key, value: ConfigEvaluationValue(value), valueID: valueID,
                isDefaultValue: reason != .foundMatch, context: context, reason: reason,
                source: ConfigEvaluation.Source(source))
        }
    }
}

extension ConfigEvaluationDetail: Sendable where Value: Sendable {}

extension ConfigEvaluationDetail: Equatable where Value: Equatable {}
