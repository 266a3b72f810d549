/// A JSON value: the type behind context traits and the literal values of tests and offline mode.
///
/// It is exact about numbers: an integer stays an ``JSONValue/integer(_:)`` and `2.5` stays a
/// ``JSONValue/double(_:)``. Write it as a Swift literal:
///
/// ```swift
/// let traits: [String: JSONValue] = ["plan": "pro", "seats": 12, "beta": true, "regions": ["us", "eu"]]
/// ```
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON number written without a fraction or exponent that fits in `Int`.
    case integer(Int)
    /// Any other JSON number: one with a fraction or exponent, or an integer too large for `Int`.
    /// A non-finite double is encoded as `null`.
    case double(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object.
    case object([String: JSONValue])
}

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates ``JSONValue/null`` from `nil`.
    /// - Parameter nilLiteral: The `nil` literal.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates ``JSONValue/bool(_:)`` from `true` or `false`.
    /// - Parameter value: The boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates ``JSONValue/integer(_:)`` from an integer literal.
    /// - Parameter value: The integer.
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates ``JSONValue/double(_:)`` from a floating-point literal.
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates ``JSONValue/string(_:)`` from a string literal.
    /// - Parameter value: The string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates ``JSONValue/array(_:)`` from an array literal.
    /// - Parameter elements: The elements.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates ``JSONValue/object(_:)`` from a dictionary literal; a repeated key keeps its last value.
    /// - Parameter elements: The members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: Codable {
    /// Creates a value from any JSON value a decoder holds.
    ///
    /// Through a `Decoder` an integral number such as `2.0` may come back as ``JSONValue/integer(_:)``,
    /// because decoders do not expose the number's text; ``JSONValue/init(parsing:)`` keeps it exact.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the decoder holds no JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Writes the value to an encoder; a non-finite double is written as `null`.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: An error from the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value) where value.isFinite: try container.encode(value)
        case .double: try container.encodeNil()
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Whether every number in the value, at any depth, is finite.
    public var isFinite: Bool {
        switch self {
        case .double(let value): value.isFinite
        case .array(let values): values.allSatisfy(\.isFinite)
        case .object(let members): members.values.allSatisfy(\.isFinite)
        case .null, .bool, .integer, .string: true
        }
    }
}
