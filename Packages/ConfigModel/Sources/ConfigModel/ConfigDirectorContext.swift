/// The user, device or other entity that configs are evaluated for.
///
/// ```swift
/// let user = ConfigDirectorContext(id: "user-123", name: "Ada", traits: ["plan": "pro", "seats": 12])
/// let tenant = ConfigDirectorContext(id: "acme", kind: "tenant", traits: ["plan": "enterprise"])
/// let signedOut = ConfigDirectorContext(isAnonymous: true)
/// ```
///
/// Leaving `id` unset makes the server derive an identifier from this SDK install. The context is
/// encoded with the wire names `id`, `kind`, `name`, `traits` and `anonymous`, and only the fields
/// that are set: `ConfigDirectorContext(id: "u1")` is `{"id":"u1"}`.
public struct ConfigDirectorContext: Sendable, Hashable {
    /// The fields, held by reference: a copy of a context (each evaluation that reports one makes one)
    /// retains one object rather than its three strings and its traits. Immutable: a change makes new
    /// storage.
    private var storage: Storage

    /// The context's identifier, or `nil` to let the server derive one from the SDK install.
    public var id: String? {
        get { storage.fields.id }
        set { change { $0.id = newValue } }
    }
    /// The context kind, such as `tenant`; `nil` means `user`. It is 1 to 64 of `a-z`, `0-9`, `-` and `_`; a context with another kind is evaluated as no context.
    public var kind: String? {
        get { storage.fields.kind }
        set { change { $0.kind = newValue } }
    }
    /// A display name for the context.
    public var name: String? {
        get { storage.fields.name }
        set { change { $0.name = newValue } }
    }
    /// Values that targeting rules can refer to, or `nil` for none.
    ///
    /// Arrays and dictionaries may nest at most 128 levels deep. A context whose traits nest deeper is
    /// never sent: the SDK logs one error and the service evaluates as if no context had been given.
    public var traits: [String: TraitValue]? {
        get { storage.fields.traits }
        set { change { $0.traits = newValue } }
    }
    /// Whether the context is a signed-out user: it is evaluated but neither persisted nor listed in the
    /// dashboard. `nil` sends nothing, which the server reads as not anonymous.
    public var isAnonymous: Bool? {
        get { storage.fields.isAnonymous }
        set { change { $0.isAnonymous = newValue } }
    }

    private struct Fields: Hashable, Sendable {
        var id: String?
        var kind: String?
        var name: String?
        var traits: [String: TraitValue]?
        var isAnonymous: Bool?
    }

    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    /// Creates a context.
    /// - Parameters:
    ///   - id: The identifier; `nil` lets the server derive one from the SDK install.
    ///   - kind: The context kind, 1 to 64 of `a-z`, `0-9`, `-`, `_`; `nil` means `user`.
    ///   - name: A display name.
    ///   - traits: Values for targeting rules, written as Swift literals; `nil` for none.
    ///   - isAnonymous: Whether this is a signed-out user; `nil` sends nothing.
    public init(
        id: String? = nil,
        kind: String? = nil,
        name: String? = nil,
        traits: [String: TraitValue]? = nil,
        isAnonymous: Bool? = nil
    ) {
        storage = Storage(Fields(id: id, kind: kind, name: name, traits: traits, isAnonymous: isAnonymous))
    }

    /// Whether two contexts have the same fields.
    /// - Parameters:
    ///   - lhs: A context.
    ///   - rhs: Another context.
    /// - Returns: Whether their fields are equal.
    public static func == (lhs: ConfigDirectorContext, rhs: ConfigDirectorContext) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the context's fields.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    /// The deepest nesting of arrays and dictionaries in ``traits`` that a request carries: the traits
    /// dictionary is level 0, so `["tags": ["a"]]` nests 1 level deep.
    ///
    /// Encoding walks a value by recursion on the thread's stack, so a context nested deeper is not
    /// encoded at all; it is sent as no context, with one logged error.
    @_spi(Internal) public static let maximumTraitDepth = 128

    /// Whether ``traits`` nest at most ``maximumTraitDepth`` levels deep; checked without recursion,
    /// so any depth can be checked.
    @_spi(Internal) public var hasSendableTraitDepth: Bool {
        guard let traits else { return true }
        return !ConfigDirectorContext.TraitValue.dictionary(traits).nests(deeperThan: Self.maximumTraitDepth + 1)
    }

    /// The kind a context has when ``kind`` is `nil`.
    @_spi(Internal) public static let defaultKind = "user"

    /// The kind this context is evaluated as: ``kind``, or `user` when it is `nil`.
    @_spi(Internal) public var effectiveKind: String { kind ?? Self.defaultKind }

    /// Whether ``kind`` is absent or valid (see ``isValidKind(_:)``).
    ///
    /// A context with an invalid kind is never sent to the server: the client logs one error and
    /// evaluates as if no context had been given.
    @_spi(Internal) public var hasValidKind: Bool { kind.map(Self.isValidKind) ?? true }

    /// Whether `kind` is a valid context kind: 1 to 64 characters of `a-z`, `0-9`, `-` and `_`.
    /// - Parameter kind: The kind to check.
    /// - Returns: `true` when the kind can be sent.
    static func isValidKind(_ kind: String) -> Bool {
        let bytes = kind.utf8
        return (1...64).contains(bytes.count)
            && bytes.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }
}

extension ConfigDirectorContext: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, kind, name, traits, anonymous
    }

    /// Creates a context from its wire form, in which every field is optional.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the value is not an object or a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decodeIfPresent(String.self, forKey: .id),
            kind: try container.decodeIfPresent(String.self, forKey: .kind),
            name: try container.decodeIfPresent(String.self, forKey: .name),
            traits: try container.decodeIfPresent([String: TraitValue].self, forKey: .traits),
            isAnonymous: try container.decodeIfPresent(Bool.self, forKey: .anonymous)
        )
    }

    /// Writes the wire form of the context: `id`, `kind`, `name`, `traits` and `anonymous`.
    ///
    /// Nil fields are omitted rather than sent as `null`; a non-finite double in the traits is
    /// written as `null`.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: An error from the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(traits, forKey: .traits)
        try container.encodeIfPresent(isAnonymous, forKey: .anonymous)
    }
}
