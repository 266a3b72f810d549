@_spi(Internal) @_spi(Storage) internal import ConfigModel
internal import Foundation

/// The document kept on the device (PROTOCOL §10), encoded as JSON into one UTF-8 string.
///
/// It is written by ``encoded(upTo:)``, which stops at the size limit, and read back once, in one pass, by
/// ``read(_:)``: the config set, the bulk of the document, as `ConfigSet(jsonBytes:)` decodes a payload, the
/// other fields as values.
struct KeptValuesEntry: Equatable {
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

    /// The key of the config set in the document.
    static let configSetKey = CodingKeys.configSet.stringValue

    /// What a kept document reads as.
    enum Reading: Equatable {
        /// Not an entry of any format version: not JSON, or no integer `formatVersion`.
        case malformed
        /// An entry of another format version, which this SDK does not read further.
        case otherFormatVersion(Int)
        /// An entry of the current format version.
        case entry(KeptValuesEntry)
    }

    /// Reads a kept document, decoding it once.
    /// - Parameter text: The document as the provider kept it.
    /// - Returns: The entry, or why there is none.
    static func read(_ text: String) -> Reading {
        guard let document = try? ConfigSet.decodingDocument(jsonBytes: text.utf8, setMember: configSetKey),
            case .int(let formatVersion)? = document.members[CodingKeys.formatVersion.stringValue]
        else { return .malformed }
        guard formatVersion == currentFormatVersion else { return .otherFormatVersion(formatVersion) }
        let members = document.members
        guard let configSet = document.set,
            case .string(let sdkVersion)? = members[CodingKeys.sdkVersion.stringValue],
            case .string(let sdkKeyHash)? = members[CodingKeys.sdkKeyHash.stringValue],
            let context = members[CodingKeys.context.stringValue].flatMap(KeptContext.init(kept:)),
            case .string(let writtenAtText)? = members[CodingKeys.writtenAt.stringValue],
            let writtenAt = try? Date.ISO8601FormatStyle().parse(writtenAtText)
        else { return .malformed }
        return .entry(
            KeptValuesEntry(
                formatVersion: formatVersion,
                sdkVersion: sdkVersion,
                sdkKeyHash: sdkKeyHash,
                context: context,
                writtenAt: writtenAt,
                configSet: configSet
            )
        )
    }
}

/// The part of a context that decides whether kept values are served for it: its kind and id, or,
/// for a context without an id, the install's instance id.
struct KeptContext: Hashable {
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

    /// Reads the context of a kept entry, as ``KeptValuesEntry/encoded(upTo:)`` writes it; `nil` when it is not one.
    init?(kept value: JSONValue) {
        guard case .dictionary(let members) = value, case .string(let kind)? = members[CodingKeys.kind.stringValue]
        else { return nil }
        if case .bool(true)? = members[CodingKeys.withoutID.stringValue] {
            guard case .string(let instanceID)? = members[CodingKeys.instanceID.stringValue] else { return nil }
            self.init(kind: kind, id: nil, instanceID: instanceID)
        } else {
            guard case .string(let id)? = members[CodingKeys.id.stringValue] else { return nil }
            self.init(kind: kind, id: id, instanceID: nil)
        }
    }
}
