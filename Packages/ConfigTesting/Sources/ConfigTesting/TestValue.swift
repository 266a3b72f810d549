public import ConfigModel

/// A value the test client serves, written as a literal; the config type follows the literal.
///
/// `true` is a boolean config, `20` an integer config, `2.5` a float config, `"Ada"` a string config,
/// `["theme": "dark", "limit": 3]` a JSON object and `["x", "y"]` a JSON array. A string is always a
/// string config, so JSON meant as a JSON config is written as an object or array literal.
public struct TestValue: Sendable, Hashable {
    /// The config type the value is served as.
    public let type: ConfigType
    /// The value as served text; a JSON value is encoded with its keys in sorted order.
    public let text: String

    private init(type: ConfigType, text: String) {
        self.type = type
        self.text = text
    }

    /// A boolean config.
    public static func boolean(_ value: Bool) -> TestValue { TestValue(type: .boolean, text: value ? "true" : "false") }

    /// An integer config.
    public static func integer(_ value: Int) -> TestValue { TestValue(type: .integer, text: String(value)) }

    /// A float config; a number that is not finite stops the test with a precondition failure.
    public static func float(_ value: Double) -> TestValue {
        precondition(value.isFinite, "A test value must be a finite number, not \(value).")
        return TestValue(type: .float, text: value.description)
    }

    /// A string config.
    public static func string(_ value: String) -> TestValue { TestValue(type: .string, text: value) }

    /// A JSON config; a number inside that is not finite stops the test with a precondition failure.
    public static func json(_ value: JSONValue) -> TestValue {
        precondition(value.isFinite, "A test value must hold only finite numbers: \(value).")
        return TestValue(type: .json, text: value.jsonText)
    }
}

extension TestValue: ExpressibleByBooleanLiteral {
    /// A boolean config.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension TestValue: ExpressibleByIntegerLiteral {
    /// An integer config.
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension TestValue: ExpressibleByFloatLiteral {
    /// A float config.
    public init(floatLiteral value: Double) { self = .float(value) }
}

extension TestValue: ExpressibleByStringLiteral {
    /// A string config.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension TestValue: ExpressibleByArrayLiteral {
    /// A JSON array config.
    public init(arrayLiteral elements: JSONValue...) { self = .json(.array(elements)) }
}

extension TestValue: ExpressibleByDictionaryLiteral {
    /// A JSON object config.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .json(JSONValue.object(Dictionary(elements, uniquingKeysWith: { _, last in last })))
    }
}
