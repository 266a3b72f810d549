/// The value an evaluation returned, read back with ``as(_:)`` as the type it was evaluated as.
public struct ConfigEvaluationValue: Sendable, Equatable, CustomStringConvertible {
    private let base: any Sendable

    /// A textual form of the value, suitable for logging.
    public var description: String { String(describing: base) }

    /// Wraps a value.
    /// - Parameter value: The value an evaluation returned.
    public init(_ value: some Sendable) {
        base = value
    }

    /// The value as `type`, or `nil` when the config was evaluated as another type.
    /// - Parameter type: The type the config was evaluated as, such as `Bool.self`.
    /// - Returns: The value, or `nil`.
    public func `as`<Value>(_ type: Value.Type) -> Value? {
        base as? Value
    }

    /// Two values are equal when they have the same type and are equal as that type (or, for
    /// types that are not `Equatable`, have the same description).
    public static func == (lhs: ConfigEvaluationValue, rhs: ConfigEvaluationValue) -> Bool {
        guard type(of: lhs.base) == type(of: rhs.base) else { return false }
        if let left = lhs.base as? any Equatable {
            return left.isEqual(to: rhs.base)
        }
        return lhs.description == rhs.description
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
