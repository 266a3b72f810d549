/// The value an evaluation returned, read back with ``as(_:)`` as the type it was evaluated as.
public struct ConfigEvaluationValue: Sendable, Equatable, CustomStringConvertible {
    @usableFromInline let base: any Sendable

    /// A textual form of the value, suitable for logging.
    public var description: String { String(describing: base) }

    /// Creates an evaluation value that wraps the value an evaluation returned.
    /// - Parameter value: The value, as the type the config was evaluated as.
    @inlinable
    public init(_ value: some Sendable) {
        base = value
    }

    /// Reads the value back as the type the config was evaluated as.
    ///
    /// ```swift
    /// let isOn = evaluation.value.as(Bool.self)  // nil when the config was read as another type
    /// ```
    /// - Parameter type: The type the config was evaluated as, such as `Bool.self`.
    /// - Returns: The value, or `nil` when the config was evaluated as another type.
    public func `as`<Value>(_ type: Value.Type) -> Value? {
        base as? Value
    }

    /// Compares two evaluation values: they are equal when they have the same type and are equal as
    /// that type, or, for types that are not `Equatable`, when they also have the same description.
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value.
    /// - Returns: Whether the values are equal.
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
