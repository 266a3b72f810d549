#if canImport(CryptoKit)
internal import CryptoKit
#endif

/// SHA-256, computed with CryptoKit where it exists and with ``PortableSHA256`` elsewhere.
public enum SHA256Digest {
    /// The 32-byte SHA-256 digest of `bytes`.
    /// - Parameter bytes: The message.
    /// - Returns: The digest.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        #if canImport(CryptoKit)
        if #available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, *) {
            return Array(CryptoKit.SHA256.hash(data: Array(bytes)))
        }
        #endif
        return PortableSHA256.hash(bytes)
    }

    /// The digest of a string's UTF-8 bytes, as lowercase hexadecimal.
    /// - Parameter text: The message.
    public static func hexHash(of text: String) -> String {
        hash(text.utf8).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 0x10 ? "0" + hex : hex
        }.joined()
    }
}
