extension ConfigDirectorContext {
    /// A trait's value: a string, number, boolean, array, dictionary or null, written as a Swift literal.
    ///
    /// It is exact about numbers: an integer literal stays an ``int(_:)`` and `2.5` stays a ``double(_:)``.
    ///
    /// ```swift
    /// let traits: [String: ConfigDirectorContext.TraitValue] = [
    ///     "plan": "pro", "seats": 12, "beta": true, "regions": ["us-east", "eu-west"], "referrer": nil,
    /// ]
    /// ```
    public enum TraitValue: Sendable, Hashable {
        /// A string.
        case string(String)
        /// A number written without a fraction or exponent that fits in `Int`.
        case int(Int)
        /// Any other number. A non-finite double is encoded as `null`.
        case double(Double)
        /// A boolean.
        case bool(Bool)
        /// An array of values.
        case array([TraitValue])
        /// A dictionary of values by key.
        case dictionary([String: TraitValue])
        /// No value: `null`.
        case null
    }
}

/// The SDK's JSON value: the same type as a context's traits, by the name its other uses read best with.
@_spi(Internal) public typealias JSONValue = ConfigDirectorContext.TraitValue

extension ConfigDirectorContext.TraitValue: ExpressibleByNilLiteral {
    /// Creates ``null`` from `nil`.
    /// - Parameter nilLiteral: The `nil` literal.
    public init(nilLiteral: ()) { self = .null }
}

extension ConfigDirectorContext.TraitValue: ExpressibleByBooleanLiteral {
    /// Creates ``bool(_:)`` from `true` or `false`.
    /// - Parameter value: The boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ConfigDirectorContext.TraitValue: ExpressibleByIntegerLiteral {
    /// Creates ``int(_:)`` from an integer literal.
    /// - Parameter value: The integer.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension ConfigDirectorContext.TraitValue: ExpressibleByFloatLiteral {
    /// Creates ``double(_:)`` from a floating-point literal.
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension ConfigDirectorContext.TraitValue: ExpressibleByStringLiteral {
    /// Creates ``string(_:)`` from a string literal.
    /// - Parameter value: The string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ConfigDirectorContext.TraitValue: ExpressibleByArrayLiteral {
    /// Creates ``array(_:)`` from an array literal.
    /// - Parameter elements: The elements.
    public init(arrayLiteral elements: ConfigDirectorContext.TraitValue...) { self = .array(elements) }
}

extension ConfigDirectorContext.TraitValue: ExpressibleByDictionaryLiteral {
    /// Creates ``dictionary(_:)`` from a dictionary literal; a repeated key keeps its last value.
    /// - Parameter elements: The members.
    public init(dictionaryLiteral elements: (String, ConfigDirectorContext.TraitValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension ConfigDirectorContext.TraitValue: Codable {
    /// Creates a value from any JSON value a decoder holds.
    ///
    /// Through a `Decoder` an integral number such as `2.0` may come back as ``int(_:)``,
    /// because decoders do not expose the number's text; `init(parsing:)` keeps it exact.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the decoder holds no JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ConfigDirectorContext.TraitValue].self) {
            self = .array(value)
        } else {
            self = .dictionary(try container.decode([String: ConfigDirectorContext.TraitValue].self))
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
        case .int(let value): try container.encode(value)
        case .double(let value) where value.isFinite: try container.encode(value)
        case .double: try container.encodeNil()
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .dictionary(let value): try container.encode(value)
        }
    }
}

extension ConfigDirectorContext.TraitValue: CustomStringConvertible {
    /// The value as compact JSON text, with a dictionary's keys sorted: `{"plan":"pro","seats":12}`.
    public var description: String { jsonText }
}

extension ConfigDirectorContext.TraitValue {
    /// Whether arrays and dictionaries nest more than `limit` levels deep in the value (a scalar nests 0
    /// levels, `[1]` one). The walk keeps its own stack rather than recursing, and stops at the first
    /// container past the limit, so it is safe and bounded for a value of any depth.
    /// - Parameter limit: The deepest nesting allowed.
    @_spi(Internal) public func nests(deeperThan limit: Int) -> Bool {
        var pending: [(value: Self, depth: Int)] = [(self, 0)]
        while let (value, depth) = pending.popLast() {
            switch value {
            case .array(let elements):
                guard depth < limit else { return true }
                pending.append(contentsOf: elements.lazy.map { ($0, depth + 1) })
            case .dictionary(let members):
                guard depth < limit else { return true }
                pending.append(contentsOf: members.values.lazy.map { ($0, depth + 1) })
            case .null, .bool, .int, .double, .string:
                continue
            }
        }
        return false
    }

    /// Whether every number in the value, at any depth, is finite.
    @_spi(Internal) public var isFinite: Bool {
        switch self {
        case .double(let value): value.isFinite
        case .array(let values): values.allSatisfy(\.isFinite)
        case .dictionary(let members): members.values.allSatisfy(\.isFinite)
        case .null, .bool, .int, .string: true
        }
    }
}
