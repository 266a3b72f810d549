/// One config as the server served it for the current context.
@_spi(Internal) public struct ConfigState: Sendable, Hashable {
    /// The config's server id.
    public var id: String?
    /// The config key.
    public var key: String?
    /// The config's declared type.
    public var type: ConfigType
    /// The evaluated value, serialised as text; `nil` when the config has no value for the context.
    public var value: String?
    /// The server's id of the value, when it sent one.
    public var valueID: String?

    /// Creates a config state.
    /// - Parameters:
    ///   - id: The config's server id.
    ///   - key: The config key.
    ///   - type: The declared type.
    ///   - value: The value as text, or `nil`.
    ///   - valueID: The server's value id, if any.
    public init(id: String? = nil, key: String? = nil, type: ConfigType, value: String?, valueID: String? = nil) {
        self.id = id
        self.key = key
        self.type = type
        self.value = value
        self.valueID = valueID
    }
}

extension ConfigState: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, key, type, value
        case valueID = "valueId"
    }

    /// Creates a config state from the server's payload, leniently (PROTOCOL §3).
    ///
    /// Every field is optional, a field of the wrong type counts as missing (a value is a string or
    /// nothing), and an unknown or missing type is ``ConfigType/custom``; as ``ConfigSet/init(jsonBytes:)``
    /// decodes an entry.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the entry is not an object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try? container.decodeIfPresent(String.self, forKey: .id)
        key = try? container.decodeIfPresent(String.self, forKey: .key)
        type = (try? container.decodeIfPresent(ConfigType.self, forKey: .type)) ?? .custom
        valueID = try? container.decodeIfPresent(String.self, forKey: .valueID)
        value = try? container.decodeIfPresent(String.self, forKey: .value)
    }

    /// Writes the config in its wire form, omitting nil fields.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: An error from the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(key, forKey: .key)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(value, forKey: .value)
        try container.encodeIfPresent(valueID, forKey: .valueID)
    }
}
