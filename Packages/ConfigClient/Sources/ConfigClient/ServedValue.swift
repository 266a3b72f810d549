public import ConfigModel

/// A value served without a connection, written as a literal; the config type follows the literal.
///
/// `true` is a boolean config, `20` an integer config, `2.5` a float config, `"Ada"` a string config,
/// `["theme": "dark", "limit": 3]` a JSON object and `["x", "y"]` a JSON array. A string is always a
/// string config, so JSON meant as a JSON config is written as an object or array literal.
///
/// ```swift
/// let client = try ConfigDirectorClient(
///     options: ConfigDirectorClientOptions(
///         connection: ConnectionOptions(mode: .offline),
///         values: ["new-checkout": true, "max-items": 20]
///     )
/// )
/// ```
public enum ServedValue: Sendable, Hashable {
    /// A boolean config.
    case boolean(Bool)
    /// An integer config.
    case integer(Int)
    /// A float config; it must be finite to be served.
    case float(Double)
    /// A string config.
    case string(String)
    /// A JSON config, encoded with its object keys in sorted order; its numbers must be finite.
    case json(JSONValue)

    /// The config type the value is served as.
    public var configType: ConfigType {
        switch self {
        case .boolean: .boolean
        case .integer: .integer
        case .float: .float
        case .string: .string
        case .json: .json
        }
    }

    /// Whether the value can be served: every number in it is finite.
    public var isServable: Bool {
        switch self {
        case .float(let value): value.isFinite
        case .json(let value): value.isFinite
        case .boolean, .integer, .string: true
        }
    }

    /// The value as served text.
    public var text: String {
        switch self {
        case .boolean(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .float(let value): value.description
        case .string(let value): value
        case .json(let value): value.jsonText
        }
    }

    /// The config state that serves this value under `key`, with the value id of PROTOCOL §7.
    /// - Parameter key: The config key.
    /// - Returns: The state a client holds for the value.
    public func configState(forKey key: String) -> ConfigState {
        let text = text
        return ConfigState(key: key, type: configType, value: text, valueID: ValueID(of: text).rawValue)
    }

    /// Why `key` and this value cannot be served, or `nil` when they can.
    /// - Parameter key: The config key the value is given for.
    /// - Returns: A sentence for ``ConfigDirectorError/invalidOfflineValue(key:reason:)``, or `nil`.
    public func problem(forKey key: String) -> String? {
        if key.allSatisfy(\.isWhitespace) { return "the key is blank" }
        if !isServable { return "\(self) is not a finite number" }
        return nil
    }
}

extension ServedValue: ExpressibleByBooleanLiteral {
    /// A boolean config.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension ServedValue: ExpressibleByIntegerLiteral {
    /// An integer config.
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension ServedValue: ExpressibleByFloatLiteral {
    /// A float config.
    public init(floatLiteral value: Double) { self = .float(value) }
}

extension ServedValue: ExpressibleByStringLiteral {
    /// A string config.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ServedValue: ExpressibleByArrayLiteral {
    /// A JSON array config.
    public init(arrayLiteral elements: JSONValue...) { self = .json(.array(elements)) }
}

extension ServedValue: ExpressibleByDictionaryLiteral {
    /// A JSON object config; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .json(.object(Dictionary(elements, uniquingKeysWith: { _, last in last })))
    }
}
