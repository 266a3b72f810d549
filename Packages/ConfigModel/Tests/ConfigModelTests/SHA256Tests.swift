import Testing

@_spi(Internal) @testable import ConfigModel

@Suite("SHA-256", .timeLimit(.minutes(1)))
struct SHA256Tests {
    /// The two implementations under test; ``SHA256Digest`` is CryptoKit where it exists.
    enum Implementation: String, CaseIterable, CustomTestStringConvertible {
        case portable
        case platform

        var testDescription: String { rawValue }

        func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
            switch self {
            case .portable: PortableSHA256.hash(bytes)
            case .platform: SHA256Digest.hash(bytes)
            }
        }
    }

    /// The NIST FIPS 180-4 example vectors.
    static let vectors: [(message: String, digest: String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
                + "nopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ]

    @Test("matches the NIST vectors", arguments: Implementation.allCases, vectors.indices)
    func nistVectors(implementation: Implementation, index: Int) {
        let (message, digest) = Self.vectors[index]
        #expect(hex(implementation.hash(message.utf8)) == digest)
    }

    @Test("matches the NIST vector for one million 'a'", arguments: Implementation.allCases)
    func oneMillionA(implementation: Implementation) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(hex(implementation.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// The texts of the value-id vectors of PROTOCOL §7, with digests from `sha256sum`. With
    /// ValueIDTests they show that both implementations give the protocol's value ids.
    static let valueIDTexts: [(message: String, digest: String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("hello", "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"),
        (
            #"{"primaryColor":"blue","cornerRadius":8}"#,
            "133f101f43f2122458e343c6d7198352f950b74fca22a6012a0ee0ef274567fe"
        ),
        (String(repeating: "a", count: 600), "ba35c170729417f1499e0886e7e12fcdb4ab00ad411110ae1e888c766d4ed70d"),
    ]

    @Test("hashes the texts of the value-id vectors", arguments: Implementation.allCases, valueIDTexts.indices)
    func hashesValueIDTexts(implementation: Implementation, index: Int) {
        let (message, digest) = Self.valueIDTexts[index]
        #expect(hex(implementation.hash(message.utf8)) == digest)
    }

    @Test("gives the same digest for every length around the block and padding boundaries")
    func implementationsAgree() {
        // Lengths 55, 56 and 64 change how the padding spills into a second block.
        for length in 0...200 {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            #expect(PortableSHA256.hash(message) == SHA256Digest.hash(message), "length \(length)")
        }
    }

    @Test(
        "hashes a sequence that is not contiguous like the same bytes in an array", arguments: Implementation.allCases)
    func nonContiguousSequence(implementation: Implementation) {
        let bytes = (0..<130).lazy.map { UInt8(truncatingIfNeeded: $0) }
        #expect(implementation.hash(bytes) == implementation.hash(Array(bytes)))
        #expect(implementation.hash(bytes).count == 32)
    }

    @Test("writes the digest of a string as lowercase hexadecimal")
    func hexHash() {
        #expect(SHA256Digest.hexHash(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hexHash(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 0x10 ? "0" + digits : digits
        }.joined()
    }
}
