public import ConfigClient
public import ConfigModel

/// A value the test client serves, written as a literal; the config type follows the literal.
///
/// `true` is a boolean config, `20` an integer config, `2.5` a float config, `"Ada"` a string config,
/// `["theme": "dark", "limit": 3]` a JSON object and `["x", "y"]` a JSON array. A string is always a
/// string config, so JSON meant as a JSON config is written as an object or array literal. A JSON
/// object is served with its keys in sorted order.
///
/// ```swift
/// let testClient = makeTestClient(values: ["new-checkout": true, "max-items": 20])
/// testClient.setValue(["theme": "dark", "limit": 3], for: "appearance")
/// ```
///
/// A number that is not finite cannot be served: giving one to ``makeTestClient(values:timeout:logger:)``,
/// ``TestClient/setValue(_:for:)`` or ``TestClient/replaceValues(_:)`` stops the test with a
/// precondition failure.
public struct TestValue: Sendable, Hashable {
    /// The value served, which decides the config type, the served text and the value id.
    public let servedValue: ServedValue

    /// Creates a test value from a served value, for values that are not literals.
    ///
    /// ```swift
    /// testClient.setValue(TestValue(.integer(items.count)), for: "max-items")
    /// ```
    /// - Parameter servedValue: The value to serve.
    public init(_ servedValue: ServedValue) {
        self.servedValue = servedValue
    }

    /// The config type the value is served as.
    public var type: ConfigType { servedValue.configType }

    /// The value as served text; a JSON value is encoded with its keys in sorted order.
    public var text: String { servedValue.text }

    /// The value, after checking that it and `key` can be served; a blank key or a number that is
    /// not finite is a programming error and stops the test.
    func checkedServedValue(forKey key: String) -> ServedValue {
        if let problem = servedValue.problem(forKey: key) {
            preconditionFailure("The test value \(text) for the key '\(key)' cannot be served: \(problem).")
        }
        return servedValue
    }
}

extension TestValue: ExpressibleByBooleanLiteral {
    /// A boolean config.
    /// - Parameter value: The boolean served.
    public init(booleanLiteral value: Bool) { self.init(ServedValue(booleanLiteral: value)) }
}

extension TestValue: ExpressibleByIntegerLiteral {
    /// An integer config.
    /// - Parameter value: The integer served.
    public init(integerLiteral value: Int) { self.init(ServedValue(integerLiteral: value)) }
}

extension TestValue: ExpressibleByFloatLiteral {
    /// A float config.
    /// - Parameter value: The number served.
    public init(floatLiteral value: Double) { self.init(ServedValue(floatLiteral: value)) }
}

extension TestValue: ExpressibleByStringLiteral {
    /// A string config.
    /// - Parameter value: The string served.
    public init(stringLiteral value: String) { self.init(ServedValue(stringLiteral: value)) }
}

extension TestValue: ExpressibleByArrayLiteral {
    /// A JSON array config.
    /// - Parameter elements: The array's elements.
    public init(arrayLiteral elements: JSONValue...) { self.init(.json(.array(elements))) }
}

extension TestValue: ExpressibleByDictionaryLiteral {
    /// A JSON object config; a repeated key keeps its last value.
    /// - Parameter elements: The object's members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(.json(.object(Dictionary(elements, uniquingKeysWith: { _, last in last }))))
    }
}
