@_spi(Internal) public import ConfigModel

/// A value as telemetry reports it (PROTOCOL §6): its text, its value id, or nothing.
@_spi(Internal) public enum TelemetryValue: Sendable, Hashable, Encodable {
    /// The longest text, in UTF-16 units, sent as is; longer values are sent by value id.
    public static let maximumTextLength = 500

    /// The value's text, sent as `{"value": …}`.
    case text(String)
    /// The value's id, sent as `{"valueId": …}`.
    case valueID(String)
    /// No value, sent as `{}`.
    case empty

    /// The form §6 prescribes for a value.
    ///
    /// A JSON config's value, or a text longer than 500 UTF-16 units, is sent by id: the server's `valueID`
    /// if there is one, else the value id of §7. An empty or missing value is `{}`, or its id if one exists.
    /// - Parameters:
    ///   - text: The value's text, or `nil`.
    ///   - configType: The config's type, or `nil` when the config was not found.
    ///   - valueID: The server's value id, if any.
    public init(text: String?, configType: ConfigType?, valueID: String?) {
        guard let text, !text.isEmpty else {
            self = valueID.map(TelemetryValue.valueID) ?? .empty
            return
        }
        if configType == .json || text.utf16.count > Self.maximumTextLength {
            self = .valueID(valueID ?? ValueID(of: text).rawValue)
        } else {
            self = .text(text)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case value
        case valueID = "valueId"
    }

    /// Encodes `{"value": …}`, `{"valueId": …}` or `{}`.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .text(let text): try container.encode(text, forKey: .value)
        case .valueID(let id): try container.encode(id, forKey: .valueID)
        case .empty: break
        }
    }
}
