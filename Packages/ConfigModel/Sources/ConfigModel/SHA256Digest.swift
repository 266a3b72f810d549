#if canImport(CryptoKit)
internal import CryptoKit
#endif

/// SHA-256, computed with CryptoKit where it can be imported and with ``PortableSHA256`` elsewhere.
///
/// Value ids (``ValueID``) and the key that values kept on the device are stored under are built on it.
@_spi(Internal) public enum SHA256Digest {
    /// Computes the 32-byte SHA-256 digest of a message.
    /// - Parameter bytes: The message.
    /// - Returns: The digest, 32 bytes.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        #if canImport(CryptoKit)
        // Every supported Apple platform version has CryptoKit (iOS 13, macOS 10.15 and later). Its
        // `hash(bufferPointer:)` is public only in the open-source swift-crypto; Apple's takes `DataProtocol`,
        // to which both a raw buffer and an array conform.
        let digest =
            bytes.withContiguousStorageIfAvailable { CryptoKit.SHA256.hash(data: UnsafeRawBufferPointer($0)) }
            ?? CryptoKit.SHA256.hash(data: Array(bytes))
        return Array(digest)
        #else
        return PortableSHA256.hash(bytes)
        #endif
    }

    /// Computes the SHA-256 digest of a string's UTF-8 bytes, written as lowercase hexadecimal.
    /// - Parameter text: The message.
    /// - Returns: 64 lowercase hexadecimal characters.
    public static func hexHash(of text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in hash(text.utf8) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
