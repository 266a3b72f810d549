extension ConfigSet {
    /// Decodes a config set from the UTF-8 bytes of its JSON payload, in one pass and without an
    /// intermediate representation of the document.
    ///
    /// The bytes must be JSON (RFC 8259): a set that is not, a raw control character in a string or
    /// invalid UTF-8 included, fails whole. The leniency is PROTOCOL §3's, and nothing more: every field
    /// is optional and a field of the wrong type counts as missing (`value` is a string or nothing), a
    /// missing or unknown kind is ``Kind/full``, a missing or unknown type is ``ConfigType/custom``, an
    /// entry that is not an object is skipped, and unknown fields are ignored. Of repeated keys the last
    /// wins. The peak memory is little more than the configs decoded.
    ///
    /// A JSON object without a `configs` object (missing or `null`) is not a config set: a heartbeat, or
    /// any other frame a stream carries beside the sets. It is `nil`, never an empty full set, which would
    /// remove every config (PROTOCOL §3).
    ///
    /// ```swift
    /// guard let set = try ConfigSet(jsonBytes: body) else { return }  // Data; nil: not a config set
    /// let event = try ConfigSet(jsonBytes: eventText.utf8)             // String.UTF8View
    /// ```
    ///
    /// - Parameter bytes: The payload as UTF-8; contiguous storage (`Data`, `[UInt8]`, a native
    ///   string's `utf8`) is read in place, any other collection is copied first.
    /// - Returns: `nil` when the payload is a JSON object without a `configs` object.
    /// - Throws: ``JSONParsingError`` when the bytes are not JSON, when the payload is not an object or
    ///   its `configs` is neither an object nor `null`, or when arrays and objects nest deeper than 512
    ///   levels.
    public init?(jsonBytes bytes: some Collection<UInt8>) throws(JSONParsingError) {
        let decoded = try Self.withBuffer(of: bytes) { buffer in
            Result { () throws(JSONParsingError) in
                var decoder = ConfigSetDecoder(bytes: buffer)
                return try decoder.decode()
            }
        }.get()
        guard let decoded else { return nil }
        self = decoded
    }

    /// Decodes a config set written by hand, as a bundled values file is: as ``init(jsonBytes:)``, except
    /// that a config's `value` may also be a JSON literal, served as the text it would be on the wire
    /// (``JSONValue/wireText``): `true` is `"true"`, `42` is `"42"`, an object or an array its compact JSON
    /// text; a string stays as its text, and `null` is no value.
    ///
    /// - Parameter bytes: The file as UTF-8, read in place when its storage is contiguous.
    /// - Returns: `nil` when the file is a JSON object without a `configs` object.
    /// - Throws: ``JSONParsingError`` for the reasons of ``init(jsonBytes:)``, and when a literal value is
    ///   a number too large for a `Double`.
    @_spi(Internal)
    public init?(bundledJSONBytes bytes: some Collection<UInt8>) throws(JSONParsingError) {
        let decoded = try Self.withBuffer(of: bytes) { buffer in
            Result { () throws(JSONParsingError) in
                var decoder = ConfigSetDecoder(bytes: buffer, literalValues: true)
                return try decoder.decode()
            }
        }.get()
        guard let decoded else { return nil }
        self = decoded
    }

    /// Decodes, in one pass, a JSON document that is an object embedding a config set as its member
    /// `name` (the entry ConfigStore keeps): the set as ``init(jsonBytes:)`` decodes it, and the other
    /// members as values.
    ///
    /// - Parameters:
    ///   - bytes: The document as UTF-8, read in place when its storage is contiguous.
    ///   - name: The key of the member that holds the set.
    /// - Returns: The set, or `nil` when the member is missing, is not an object (it is then among
    ///   `members`) or holds no `configs` object, and every other member of the document (of a repeated
    ///   key, the last).
    /// - Throws: ``JSONParsingError`` when the bytes are not JSON, when the document is not an object,
    ///   or for the reasons of ``init(jsonBytes:)``.
    @_spi(Storage)
    public static func decodingDocument(jsonBytes bytes: some Collection<UInt8>, setMember name: String)
        throws(JSONParsingError) -> (set: ConfigSet?, members: [String: JSONValue])
    {
        try withBuffer(of: bytes) { buffer in
            Result { () throws(JSONParsingError) in
                var decoder = ConfigSetDecoder(bytes: buffer)
                return try decoder.decodeDocument(setMember: name)
            }
        }.get()
    }

    /// Runs `body` on the bytes, in place when their storage is contiguous.
    private static func withBuffer<Value>(
        of bytes: some Collection<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result<Value, JSONParsingError>
    ) -> Result<Value, JSONParsingError> {
        bytes.withContiguousStorageIfAvailable(body) ?? Array(bytes).withUnsafeBufferPointer(body)
    }
}
