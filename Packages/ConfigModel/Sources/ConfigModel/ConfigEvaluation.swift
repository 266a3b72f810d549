/// One evaluation of a config: what was asked, what was returned, and why.
public struct ConfigEvaluation: Sendable, Equatable {
    /// The config key that was evaluated.
    public var key: String
    /// The value returned: the served value, or the caller's default.
    public var value: ConfigEvaluationValue
    /// A stable hash of the served value (PROTOCOL §7), or `nil` when the default value was returned.
    public var valueID: String?
    /// Whether the caller's default value was returned.
    public var isDefaultValue: Bool
    /// The context the config was evaluated against, if one was set.
    public var context: ConfigDirectorContext?
    /// Why the evaluation returned what it did.
    public var reason: EvaluationReason
    /// Where this evaluation's value came from: live values, values kept on the device, bundled values,
    /// a local override, or the default given in code.
    public var source: Source

    /// Creates an evaluation.
    /// - Parameters:
    ///   - key: The config key.
    ///   - value: The value returned.
    ///   - valueID: The served value's id, or `nil` for a default value.
    ///   - isDefaultValue: Whether the default was returned.
    ///   - context: The context evaluated against.
    ///   - reason: Why.
    ///   - source: Where the value came from; by default ``Source/codeDefault`` for a default value and
    ///     ``Source/live`` for any other.
    @inlinable
    public init(
        key: String,
        value: ConfigEvaluationValue,
        valueID: String?,
        isDefaultValue: Bool,
        context: ConfigDirectorContext?,
        reason: EvaluationReason,
        source: Source? = nil
    ) {
        self.key = key
        self.value = value
        self.valueID = valueID
        self.isDefaultValue = isDefaultValue
        self.context = context
        self.reason = reason
        self.source = source ?? (isDefaultValue ? .codeDefault : .live)
    }
}
