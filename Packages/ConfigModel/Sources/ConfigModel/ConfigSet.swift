/// A payload of configs from the server: the whole state for a context, or the configs that changed.
@_spi(Internal) public struct ConfigSet: Sendable, Hashable {
    /// Whether a set replaces the whole state or merges into it.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The whole state for the context; keys it omits are removed.
        case full
        /// Only the configs that changed; merged key by key.
        case delta
    }

    /// The environment the configs belong to.
    public var environmentID: String?
    /// The project the configs belong to.
    public var projectID: String?
    /// Whether the set is full or a delta.
    public var kind: Kind
    /// The server's timestamp of the set, kept as sent (polling echoes it back).
    public var timestamp: String?
    /// The configs, by key: by its exact bytes, so that canonically equivalent spellings stay apart.
    public var configs: [ExactKey: ConfigState]

    /// Creates a config set.
    /// - Parameters:
    ///   - environmentID: The environment id.
    ///   - projectID: The project id.
    ///   - kind: Full or delta.
    ///   - timestamp: The server timestamp, as sent.
    ///   - configs: The configs by key.
    public init(
        environmentID: String? = nil,
        projectID: String? = nil,
        kind: Kind = .full,
        timestamp: String? = nil,
        configs: [ExactKey: ConfigState]
    ) {
        self.environmentID = environmentID
        self.projectID = projectID
        self.kind = kind
        self.timestamp = timestamp
        self.configs = configs
    }
}

extension ConfigSet: Codable {
    private enum CodingKeys: String, CodingKey {
        case environmentID = "environmentId"
        case projectID = "projectId"
        case kind, timestamp, configs
    }

    /// A member name of the `configs` object.
    private struct MemberName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A config entry that is skipped instead of failing the set when it is not an object.
    private struct LenientEntry: Decodable {
        let state: ConfigState?
        init(from decoder: any Decoder) throws { state = try? ConfigState(from: decoder) }
    }

    /// Creates a config set from the server's payload, leniently (PROTOCOL §3).
    ///
    /// Every field is optional, a missing or unknown kind is ``Kind/full``, a field of the wrong type
    /// is ignored, and a config entry that is not an object is skipped. The dictionary key names each
    /// config. `JSONDecoder` itself keys an object's members by `String`, so members whose names are
    /// canonically equivalent reach this initializer as one; the client decodes with
    /// ``init(jsonBytes:)``, which keeps them apart.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the payload, or its `configs`, is not an object, or when it has no
    ///   `configs` (missing or `null`): such a payload is not a config set.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        environmentID = try? container.decodeIfPresent(String.self, forKey: .environmentID)
        projectID = try? container.decodeIfPresent(String.self, forKey: .projectID)
        let kindName = try? container.decodeIfPresent(String.self, forKey: .kind)
        kind = kindName.flatMap(Kind.init(rawValue:)) ?? .full
        timestamp = try? container.decodeIfPresent(String.self, forKey: .timestamp)
        // Straight into the dictionary kept, without an intermediate one: a full set is the largest
        // payload the SDK decodes, and its peak memory is what this saves.
        guard container.contains(.configs), try !container.decodeNil(forKey: .configs) else {
            // Not a config set (PROTOCOL §3): read as a full set without configs, it would remove every config.
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [CodingKeys.configs],
                    debugDescription: "The payload has no configs object: it is not a config set."
                )
            )
        }
        let entries = try container.nestedContainer(keyedBy: MemberName.self, forKey: .configs)
        let keys = entries.allKeys
        var configs: [ExactKey: ConfigState] = [:]
        configs.reserveCapacity(keys.count)
        for key in keys {
            if let entry = try? entries.decode(LenientEntry.self, forKey: key), let state = entry.state {
                configs[ExactKey(key.stringValue)] = state
            }
        }
        self.configs = configs
    }

    /// Writes the set in its wire form, omitting nil fields.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: An error from the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(environmentID, forKey: .environmentID)
        try container.encodeIfPresent(projectID, forKey: .projectID)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(timestamp, forKey: .timestamp)
        var entries = container.nestedContainer(keyedBy: MemberName.self, forKey: .configs)
        for (key, state) in configs {
            try entries.encode(state, forKey: MemberName(stringValue: key.name))
        }
    }
}
