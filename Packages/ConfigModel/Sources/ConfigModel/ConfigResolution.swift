/// The outcome of reading a served config as a type: the value when it could be read, and why.
@_spi(Internal) public struct ConfigResolution<Value> {
    /// The value read from the config, or `nil` when the caller's default applies.
    public var value: Value?
    /// Why the value was or was not read.
    public var reason: EvaluationReason

    /// Creates a resolution.
    /// - Parameters:
    ///   - value: The value read, or `nil`.
    ///   - reason: Why.
    public init(value: Value?, reason: EvaluationReason) {
        self.value = value
        self.reason = reason
    }

    /// The resolution of a key that is not in the state: ``EvaluationReason/configStateMissing``
    /// once the client is ready, ``EvaluationReason/clientNotReady`` before.
    /// - Parameter isReady: Whether the client holds config state.
    /// - Returns: A resolution with no value and the reason.
    public static func missingConfig(isReady: Bool) -> ConfigResolution {
        ConfigResolution(value: nil, reason: isReady ? .configStateMissing : .clientNotReady)
    }
}

extension ConfigResolution: Sendable where Value: Sendable {}

extension ConfigResolution: Equatable where Value: Equatable {}
