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

    /// Decodes a type leniently: an unknown name is ``custom``.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = ConfigType(rawValue: name) ?? .custom
    }
}
