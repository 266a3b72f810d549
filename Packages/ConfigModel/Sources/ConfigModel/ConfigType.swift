/// The type of a config as the server declares it.
public enum ConfigType: String, Sendable, Hashable, CaseIterable, Codable {
    /// A type the SDK does not know; its value is read as text.
    case custom
    /// `true` or `false`.
    case boolean
    /// Free text.
    case string
    /// A whole number.
    case integer
    /// A number with a fraction.
    case float
    /// One of a fixed set of strings.
    case `enum`
    /// A URL.
    case url
    /// A JSON document.
    case json

    /// Creates a config type from its wire name, leniently: an unknown name is ``custom``.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = ConfigType(rawValue: name) ?? .custom
    }
}
