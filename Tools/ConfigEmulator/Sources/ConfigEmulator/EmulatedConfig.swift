@_spi(Internal) public import ConfigModel

/// One config the emulator serves: its key, type, default value and values for particular contexts.
///
/// In a configs file it is written as
///
/// ```json
/// {"key": "dark-mode", "type": "boolean", "value": false,
///  "rules": [{"trait": "plan", "equals": "pro", "value": true}]}
/// ```
public struct EmulatedConfig: Sendable, Hashable, Codable {
    /// The config key.
    public var key: String
    /// The config's declared type.
    public var type: ConfigType
    /// The value served when no rule matches; ``ConfigDirectorContext/TraitValue/null`` serves no value.
    public var value: ConfigDirectorContext.TraitValue
    /// The config's server id; the key when `nil`.
    public var id: String?
    /// The value id sent with the default value, if any.
    public var valueID: String?
    /// Values for particular contexts; the first rule that matches wins.
    public var rules: [ContextRule]

    /// Creates a config.
    /// - Parameters:
    ///   - key: The config key.
    ///   - type: The declared type.
    ///   - value: The value served when no rule matches.
    ///   - id: The config's server id; the key when `nil`.
    ///   - valueID: A value id to send with the default value.
    ///   - rules: Values for particular contexts, first match wins.
    public init(
        key: String,
        type: ConfigType,
        value: ConfigDirectorContext.TraitValue,
        id: String? = nil,
        valueID: String? = nil,
        rules: [ContextRule] = []
    ) {
        self.key = key
        self.type = type
        self.value = value
        self.id = id
        self.valueID = valueID
        self.rules = rules
    }

    private enum CodingKeys: String, CodingKey {
        case key, type, value, id
        case valueID = "valueId"
        case rules
    }

    /// Decodes a config from the configs file format; `value` and `rules` may be omitted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        type = try container.decode(ConfigType.self, forKey: .type)
        value =
            container.contains(.value)
            ? try container.decode(ConfigDirectorContext.TraitValue.self, forKey: .value) : .null
        id = try container.decodeIfPresent(String.self, forKey: .id)
        valueID = try container.decodeIfPresent(String.self, forKey: .valueID)
        rules = try container.decodeIfPresent([ContextRule].self, forKey: .rules) ?? []
    }

    /// Encodes the configs file format.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(type, forKey: .type)
        try container.encode(value, forKey: .value)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(valueID, forKey: .valueID)
        if !rules.isEmpty { try container.encode(rules, forKey: .rules) }
    }

    /// The config as served to `context`: the first matching rule's value, else ``value``, as wire text.
    /// - Parameter context: The context the config is evaluated for.
    /// - Returns: The wire form of the config for that context.
    func state(for context: ConfigDirectorContext) -> ConfigState {
        let rule = rules.first { $0.matches(context) }
        let served = rule?.value ?? value
        return ConfigState(
            id: id ?? key,
            key: key,
            type: type,
            value: Self.wireText(of: served, type: type),
            valueID: rule.map(\.valueID) ?? valueID
        )
    }

    /// The text a value is served as: the rule of a bundled values file (a string as itself, `null` as
    /// no value, any other value as its compact JSON text), except that a `json` config's string is a JSON
    /// string document, quotes included, since this file writes a `json` config's document itself.
    /// - Parameters:
    ///   - value: The value from the configs file.
    ///   - type: The config's type.
    /// - Returns: The wire text, or `nil` for `null`.
    public static func wireText(of value: ConfigDirectorContext.TraitValue, type: ConfigType) -> String? {
        switch (value, type) {
        case (.string, .json): value.jsonText
        default: value.wireText
        }
    }
}
