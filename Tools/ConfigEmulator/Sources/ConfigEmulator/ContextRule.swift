@_spi(Internal) public import ConfigModel

/// A value that a config serves to the contexts a condition selects.
///
/// Written in a configs file as `{"kind": "tenant", "id": "acme", "value": …}` (by kind and id; `kind`
/// defaults to `user`), `{"trait": "plan", "equals": "pro", "value": …}` (by a trait equal to a value),
/// or both at once (every condition must hold).
public struct ContextRule: Sendable, Hashable, Codable {
    /// The context kind the rule selects; with ``id`` unset, every context of that kind.
    public var kind: String?
    /// The context id the rule selects, of kind ``kind`` (or `user`).
    public var id: String?
    /// The name of a trait the rule compares.
    public var trait: String?
    /// The value the trait must equal.
    public var equals: ConfigDirectorContext.TraitValue?
    /// The value served to the selected contexts; ``ConfigDirectorContext/TraitValue/null`` serves no value.
    public var value: ConfigDirectorContext.TraitValue
    /// The value id sent with the value, if any.
    public var valueID: String?

    /// Creates a rule; give `kind` and/or `id`, `trait` with `equals`, or both.
    /// - Parameters:
    ///   - kind: The context kind selected.
    ///   - id: The context id selected.
    ///   - trait: The trait compared.
    ///   - equals: The value the trait must equal.
    ///   - value: The value served.
    ///   - valueID: A value id to send with it.
    public init(
        kind: String? = nil,
        id: String? = nil,
        trait: String? = nil,
        equals: ConfigDirectorContext.TraitValue? = nil,
        value: ConfigDirectorContext.TraitValue,
        valueID: String? = nil
    ) {
        self.kind = kind
        self.id = id
        self.trait = trait
        self.equals = equals
        self.value = value
        self.valueID = valueID
    }

    private enum CodingKeys: String, CodingKey {
        case kind, id, trait, equals, value
        case valueID = "valueId"
    }

    /// Decodes a rule; it must have a condition and a `value` (which may be `null`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decodeIfPresent(String.self, forKey: .kind)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        trait = try container.decodeIfPresent(String.self, forKey: .trait)
        // Decoded only when present: `nil` here would be taken as JSON null (ConfigDirectorContext.TraitValue is ExpressibleByNilLiteral).
        equals =
            container.contains(.equals)
            ? .some(try container.decode(ConfigDirectorContext.TraitValue.self, forKey: .equals)) : .none
        value = try container.decode(ConfigDirectorContext.TraitValue.self, forKey: .value)
        valueID = try container.decodeIfPresent(String.self, forKey: .valueID)
        guard kind != nil || id != nil || trait != nil else {
            throw DecodingError.dataCorruptedError(
                forKey: .value, in: container, debugDescription: "a rule needs kind, id or trait"
            )
        }
        let hasEquals = equals.map { _ in true } ?? false
        guard (trait == nil) != hasEquals else {
            throw DecodingError.dataCorruptedError(
                forKey: .equals, in: container, debugDescription: "trait and equals go together"
            )
        }
    }

    /// Encodes the configs file format.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(trait, forKey: .trait)
        try container.encodeIfPresent(equals, forKey: .equals)
        try container.encode(value, forKey: .value)
        try container.encodeIfPresent(valueID, forKey: .valueID)
    }

    /// Whether the rule selects `context`.
    /// - Parameter context: The context to test.
    /// - Returns: `true` when every condition of the rule holds for it.
    public func matches(_ context: ConfigDirectorContext) -> Bool {
        if let id, context.id != id || context.effectiveKind != (kind ?? ConfigDirectorContext.defaultKind) {
            return false
        }
        if id == nil, let kind, context.effectiveKind != kind { return false }
        if let trait, context.traits?[trait] != equals { return false }
        return kind != nil || id != nil || trait != nil
    }
}
