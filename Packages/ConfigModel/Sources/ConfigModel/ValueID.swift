/// The stable id of a value (PROTOCOL §7): the first 16 bytes of the SHA-256 of its UTF-8 text,
/// read as a big-endian 128-bit number and written in base 62, padded to 22 characters.
@_spi(Internal) public struct ValueID: Sendable, Hashable, CustomStringConvertible {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let length = 22

    /// The id's 22 characters.
    public let rawValue: String

    /// Creates the value id of a value's text.
    /// - Parameter text: The value as served, or as its config text.
    public init(of text: String) {
        let digest = SHA256Digest.hash(text.utf8)
        var high = digest[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var low = digest[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        // Written as UTF-8 in place: a `[Character]` made into a `String` cost more than the hash.
        rawValue = String(unsafeUninitializedCapacity: Self.length) { characters in
            characters.initialize(repeating: UInt8(ascii: "0"))
            var position = Self.length
            while high != 0 || low != 0 {
                let (highQuotient, highRemainder) = high.quotientAndRemainder(dividingBy: 62)
                let (lowQuotient, remainder) = UInt64(62).dividingFullWidth((highRemainder, low))
                high = highQuotient
                low = lowQuotient
                position -= 1
                characters[position] = Self.alphabet[Int(remainder)]
            }
            return Self.length
        }
    }

    /// The id's 22 characters, as ``rawValue``.
    public var description: String { rawValue }
}
