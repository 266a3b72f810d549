@_spi(Internal) public import ConfigModel

/// A value served without a connection, written as a literal; the config type follows the case.
///
/// `true` is a boolean config, `20` an integer config, `2.5` a float config, `"Ada"` a string config,
/// `["theme": "dark", "limit": 3]` a JSON object and `["x", "y"]` a JSON array. A string is always a
/// string config, so JSON meant as a JSON config is written as an object or array literal. The test
/// client's `TestValue` is this same type.
///
/// ```swift
/// let client = try ConfigDirectorClient(
///     options: ConfigDirectorClientOptions(
///         connection: ConnectionOptions(mode: .offline),
///         values: ["new-checkout": true, "max-items": 20]
///     )
/// )
/// ```
///
/// A float is served as plain decimal text, never in exponent form (`1e21` is
/// `1000000000000000000000`); a JSON object is served with its keys in sorted order.
public enum ServedValue: Sendable, Hashable {
    /// A boolean config.
    case boolean(Bool)
    /// An integer config.
    case integer(Int)
    /// A float config; it must be finite to be served.
    case float(Double)
    /// A string config.
    case string(String)
    /// A JSON config holding an object; its numbers must be finite.
    case object([String: ServedValue])
    /// A JSON config holding an array; its numbers must be finite.
    case array([ServedValue])
}

extension ServedValue {
    /// The config type the value is served as.
    @_spi(Internal) public var configType: ConfigType {
        switch self {
        case .boolean: .boolean
        case .integer: .integer
        case .float: .float
        case .string: .string
        case .object, .array: .json
        }
    }

    /// Whether the value can be served: every number in it is finite.
    var isServable: Bool {
        switch self {
        case .float(let value): value.isFinite
        case .object(let members): members.values.allSatisfy(\.isServable)
        case .array(let elements): elements.allSatisfy(\.isServable)
        case .boolean, .integer, .string: true
        }
    }

    /// The value as served text: a float in plain decimal form, JSON with its keys sorted.
    @_spi(Internal) public var text: String {
        switch self {
        case .boolean(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .float(let value): Self.plainDecimalText(of: value)
        case .string(let value): value
        case .object, .array: jsonValue.jsonText
        }
    }

    /// The config state that serves this value under `key`, with the value id of PROTOCOL §7.
    /// - Parameter key: The config key.
    /// - Returns: The state a client holds for the value.
    @_spi(Internal) public func configState(forKey key: String) -> ConfigState {
        let text = text
        return ConfigState(key: key, type: configType, value: text, valueID: ValueID(of: text).rawValue)
    }

    /// Why `key` and this value cannot be served, or `nil` when they can.
    /// - Parameter key: The config key the value is given for.
    /// - Returns: A sentence for ``ConfigDirectorError/invalidOfflineValue(key:reason:)``, or `nil`.
    @_spi(Internal) public func problem(forKey key: String) -> String? {
        if key.allSatisfy(\.isWhitespace) { return "the key is blank" }
        if !isServable { return "\(text) is not a finite number" }
        return nil
    }

    /// The full set that serves `values`.
    /// - Parameters:
    ///   - values: The values, by config key.
    ///   - invalid: The error for a key whose value cannot be served, given the key and the problem.
    /// - Returns: A full set of the values' config states.
    static func fullSet(
        of values: [String: ServedValue],
        invalid: (_ key: String, _ problem: String) -> ConfigDirectorError
    ) throws(ConfigDirectorError) -> ConfigSet {
        var configs: [ExactKey: ConfigState] = [:]
        for (key, value) in values {
            if let problem = value.problem(forKey: key) { throw invalid(key, problem) }
            configs[ExactKey(key)] = value.configState(forKey: key)
        }
        return ConfigSet(kind: .full, configs: configs)
    }

    /// The value as a JSON value, for the JSON text of an object or an array.
    private var jsonValue: JSONValue {
        switch self {
        case .boolean(let value): .bool(value)
        case .integer(let value): .int(value)
        case .float(let value): .double(value)
        case .string(let value): .string(value)
        case .object(let members): .dictionary(members.mapValues(\.jsonValue))
        case .array(let elements): .array(elements.map(\.jsonValue))
        }
    }

    /// `value` in plain decimal notation: `2.5`, `2.0`, `1000000000000000000000`, `0.0000001`.
    ///
    /// Swift's shortest round-trip description switches to exponent form for large and small
    /// magnitudes (`1e+21`, `1e-07`); the digits are kept and the decimal point moved instead.
    static func plainDecimalText(of value: Double) -> String {
        let description = value.description
        guard value.isFinite, let exponentIndex = description.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(description[description.index(after: exponentIndex)...])
        else { return description }
        var mantissa = description[..<exponentIndex]
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa = mantissa.dropFirst() }
        let integerDigitCount =
            mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
            ?? mantissa.count
        let digits = mantissa.filter { $0 != "." }
        let pointPosition = integerDigitCount + exponent
        if pointPosition >= digits.count {
            return sign + digits + String(repeating: "0", count: pointPosition - digits.count)
        }
        if pointPosition <= 0 {
            return sign + "0." + String(repeating: "0", count: -pointPosition) + digits
        }
        let split = digits.index(digits.startIndex, offsetBy: pointPosition)
        return sign + digits[..<split] + "." + digits[split...]
    }
}

extension ServedValue: ExpressibleByBooleanLiteral {
    /// A boolean config.
    /// - Parameter value: The boolean served.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension ServedValue: ExpressibleByIntegerLiteral {
    /// An integer config.
    /// - Parameter value: The integer served.
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension ServedValue: ExpressibleByFloatLiteral {
    /// A float config.
    /// - Parameter value: The number served.
    public init(floatLiteral value: Double) { self = .float(value) }
}

extension ServedValue: ExpressibleByStringLiteral {
    /// A string config.
    /// - Parameter value: The string served.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ServedValue: ExpressibleByArrayLiteral {
    /// A JSON array config.
    /// - Parameter elements: The array's elements.
    public init(arrayLiteral elements: ServedValue...) { self = .array(elements) }
}

extension ServedValue: ExpressibleByDictionaryLiteral {
    /// A JSON object config; a repeated key keeps its last value.
    /// - Parameter elements: The object's members.
    public init(dictionaryLiteral elements: (String, ServedValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
