extension ConfigSet {
    /// Decodes a config set from the UTF-8 bytes of its JSON payload, in one pass and without an
    /// intermediate representation of the document.
    ///
    /// The result is the one `JSONDecoder().decode(ConfigSet.self, from:)` gives for the same bytes,
    /// with the same leniency (PROTOCOL §3): every field is optional, a missing or unknown kind is
    /// ``Kind/full``, a missing or unknown type is ``ConfigType/custom``, a value sent as a number or
    /// boolean is kept as its text, an entry that is not an object is skipped, unknown fields are ignored,
    /// and of repeated keys the first wins. The input fails where `JSONDecoder` fails; the peak memory
    /// is little more than the configs decoded.
    ///
    /// ```swift
    /// let set = try ConfigSet(jsonBytes: body)              // Data
    /// let event = try ConfigSet(jsonBytes: eventText.utf8)  // String.UTF8View
    /// ```
    ///
    /// - Parameter bytes: The payload as UTF-8; contiguous storage (`Data`, `[UInt8]`, a native
    ///   string's `utf8`) is read in place, any other collection is copied first.
    /// - Throws: ``JSONParsingError`` when the bytes are not JSON, when the payload or its `configs` is
    ///   not an object, when a key of the set, of `configs` is not a valid string, or when arrays and
    ///   objects nest deeper than 512 levels.
    public init(jsonBytes bytes: some Collection<UInt8>) throws(JSONParsingError) {
        self = try Self.decoding(bytes, member: nil)
    }

    /// Decodes the config set that is the value of the member `name` of a JSON object, as `JSONDecoder`
    /// decodes a `ConfigSet` property of a `Decodable` type, for a document that embeds a set (the
    /// entry ConfigStore keeps). The rest of the document is only checked to be JSON.
    ///
    /// - Parameters:
    ///   - bytes: The document as UTF-8, read in place when its storage is contiguous.
    ///   - name: The key of the member that holds the set.
    /// - Throws: ``JSONParsingError`` when the bytes are not JSON, when the document is not an object,
    ///   when it has no member `name` or the first one is not an object, or for the reasons of
    ///   ``init(jsonBytes:)``.
    @_spi(Storage)
    public init(jsonBytes bytes: some Collection<UInt8>, member name: String) throws(JSONParsingError) {
        self = try Self.decoding(bytes, member: name)
    }

    /// Decodes the whole input, or the member `member` of the input's object, in place when it can.
    private static func decoding(_ bytes: some Collection<UInt8>, member: String?) throws(JSONParsingError)
        -> ConfigSet
    {
        let decode = { (buffer: UnsafeBufferPointer<UInt8>) in
            Result { () throws(JSONParsingError) -> ConfigSet in
                var decoder = ConfigSetDecoder(bytes: buffer)
                if let member { return try decoder.decode(member: member) }
                return try decoder.decode()
            }
        }
        let result = bytes.withContiguousStorageIfAvailable(decode) ?? Array(bytes).withUnsafeBufferPointer(decode)
        return try result.get()
    }
}
