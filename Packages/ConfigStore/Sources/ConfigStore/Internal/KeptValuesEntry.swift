@_spi(Internal) internal import ConfigModel
internal import Foundation

/// The document kept on the device (PROTOCOL §10), encoded as JSON into one UTF-8 string.
///
/// It is read back in two parts: ``Fields`` through `JSONDecoder`, and the config set, the bulk of the
/// document, through `ConfigSet(jsonBytes:member:)`, which decodes it the same way without building
/// `JSONDecoder`'s representation of a thousand entries.
struct KeptValuesEntry: Encodable, Equatable {
    /// The version of this document's layout; an entry of another version is removed.
    static let currentFormatVersion = 1

    /// The layout's version.
    var formatVersion: Int
    /// The SDK version that wrote the entry, for diagnosis.
    var sdkVersion: String
    /// The lowercase hexadecimal SHA-256 of the client SDK key; never the key itself.
    var sdkKeyHash: String
    /// The context the values were evaluated for.
    var context: KeptContext
    /// When the entry was written.
    var writtenAt: Date
    /// The last config set, as received.
    var configSet: ConfigSet

    private enum CodingKeys: String, CodingKey {
        case formatVersion, sdkVersion, sdkKeyHash, context, writtenAt, configSet
    }

    /// The only field read before the rest, so that another layout is recognised as such.
    struct Header: Decodable {
        var formatVersion: Int
    }

    /// The fields of the entry other than its config set, as read back.
    struct Fields: Decodable {
        var sdkVersion: String
        var sdkKeyHash: String
        var context: KeptContext
        var writtenAt: Date
    }

    /// The key of the config set in the document.
    static let configSetKey = CodingKeys.configSet.stringValue

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// The part of a context that decides whether kept values are served for it: its kind and id, or,
/// for a context without an id, the install's instance id.
struct KeptContext: Codable, Hashable {
    /// The effective kind: `user` when the context has none.
    var kind: String
    /// The context id, or `nil` for a context without one.
    var id: String?
    /// The instance id a context without an id was evaluated with; `nil` when ``id`` is set.
    var instanceID: String?

    private enum CodingKeys: String, CodingKey {
        case kind, id
        case withoutID = "withoutId"
        case instanceID = "instanceId"
    }

    init(kind: String, id: String?, instanceID: String?) {
        self.kind = kind
        self.id = id
        self.instanceID = id == nil ? instanceID : nil
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        if try container.decodeIfPresent(Bool.self, forKey: .withoutID) == true {
            id = nil
            instanceID = try container.decode(String.self, forKey: .instanceID)
        } else {
            id = try container.decode(String.self, forKey: .id)
            instanceID = nil
        }
    }

    /// Writes `kind` and `id`, or `kind`, the marker `"withoutId": true` and `instanceId`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        if let id {
            try container.encode(id, forKey: .id)
        } else {
            try container.encode(true, forKey: .withoutID)
            try container.encode(instanceID ?? "", forKey: .instanceID)
        }
    }
}
