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
        let decode = { (buffer: UnsafeBufferPointer<UInt8>) in
            Result { () throws(JSONParsingError) -> ConfigSet in
                var decoder = ConfigSetDecoder(bytes: buffer)
                return try decoder.decode()
            }
        }
        let result = bytes.withContiguousStorageIfAvailable(decode) ?? Array(bytes).withUnsafeBufferPointer(decode)
        self = try result.get()
    }
}
