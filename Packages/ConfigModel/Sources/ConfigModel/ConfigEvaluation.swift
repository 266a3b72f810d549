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

    /// Creates an evaluation.
    /// - Parameters:
    ///   - key: The config key.
    ///   - value: The value returned.
    ///   - valueID: The served value's id, or `nil` for a default value.
    ///   - isDefaultValue: Whether the default was returned.
    ///   - context: The context evaluated against.
    ///   - reason: Why.
    public init(
        key: String,
        value: ConfigEvaluationValue,
        valueID: String?,
        isDefaultValue: Bool,
        context: ConfigDirectorContext?,
        reason: EvaluationReason
    ) {
        self.key = key
        self.value = value
        self.valueID = valueID
        self.isDefaultValue = isDefaultValue
        self.context = context
        self.reason = reason
    }
}
