/// A fingerprint of the configs a client serves: the same configs give the same fingerprint in every process and
/// on every platform, whatever their order, so that a launch can tell whether it serves the set an earlier launch
/// served.
///
/// Each config (its key's bytes, type, value and value id) is hashed with 64-bit FNV-1a and mixed; the fingerprint
/// is the sum of the mixed hashes in two lanes of different seeds, 128 bits written as 32 hexadecimal digits. A sum
/// is what lets a set be fingerprinted in any order. It tells sets apart by accident, not against an adversary:
/// the service that sends the sets is trusted with their values already.
@_spi(Internal) public struct ConfigFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 32 hexadecimal digits.
    public let hex: String

    /// The fingerprint that per-config hashes of ``hash(key:state:)`` add up to.
    /// - Parameter hashes: The hash of every config of the set.
    public init(hashes: some Sequence<UInt64>) {
        var lanes: (UInt64, UInt64) = (0, 0)
        for hash in hashes {
            lanes.0 &+= Self.mixed(hash)
            lanes.1 &+= Self.mixed(hash ^ 0x9E37_79B9_7F4A_7C15)
        }
        self.init(lanes: lanes)
    }

    /// A fingerprint read back from its hexadecimal digits.
    /// - Parameter hex: The digits, as ``hex`` wrote them.
    public init(hex: String) {
        self.hex = hex
    }

    private init(lanes: (UInt64, UInt64)) {
        func digits(_ lane: UInt64) -> String {
            let text = String(lane, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        hex = digits(lanes.0) + digits(lanes.1)
    }

    public var description: String { hex }

    /// The hash of one config, the same in every process: 64-bit FNV-1a of the key's UTF-8 bytes, the type, the
    /// value and the value id, each followed by a byte that UTF-8 never holds (and a missing value or value id by
    /// another), so that no two configs run into each other.
    /// - Parameters:
    ///   - key: The config's key.
    ///   - state: The config.
    /// - Returns: The hash.
    public static func hash(key: ExactKey, state: ConfigState) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ text: String?) {
            guard let text else {
                hash = (hash ^ 0xFE) &* 0x0000_0100_0000_01B3
                return
            }
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3
        }
        add(key.name)
        add(state.type.rawValue)
        add(state.value)
        add(state.valueID)
        return hash
    }

    /// SplitMix64's finalizer: spreads the bits of an FNV hash before the hashes are added up.
    private static func mixed(_ value: UInt64) -> UInt64 {
        var mixed = value
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
