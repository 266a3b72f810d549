public import Foundation

/// A config's key, equal to another only when their UTF-8 bytes are the same.
///
/// Swift's `String` compares and hashes by Unicode canonical equivalence, so "café" spelled with U+00E9 and
/// with "e" and U+0301 would be one dictionary key; JSON member names, and the service, compare code points,
/// and a set may hold both spellings with different values. Everything the client keeps per key (its configs,
/// its watchers, its telemetry, the kept entry) is keyed by this type, and the app's key is looked up the same
/// way, so that each spelling reads its own config.
///
/// A lookup costs what a `String` key's does: equality asks `String` first (fast, and true for every pair of
/// identical keys), and compares bytes only when neither key is known to be ASCII (``isKnownASCII``).
@_spi(Internal)
public struct ExactKey: Sendable, Hashable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The key as the service and the app spell it.
    public let name: String

    /// Whether the key was checked to be ASCII. An ASCII key is canonically equivalent to no other key of as
    /// many UTF-8 bytes: a scalar equivalent to an ASCII one is a singleton of two or more bytes (U+212A KELVIN
    /// SIGN, U+037E GREEK QUESTION MARK), and no decomposition gives ASCII alone. So once `String` holds two keys
    /// equal and their byte counts agree, one ASCII key is enough to know their bytes are the same.
    @usableFromInline let isKnownASCII: Bool

    /// Wraps a key to be held (in a table, a set, a list of watchers), checking once whether it is ASCII.
    /// - Parameter name: The key.
    public init(_ name: String) {
        self.name = name
        isKnownASCII = name.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Wraps a key to look up, without reading it: what an evaluation does with the app's key.
    /// - Parameter name: The key.
    @inlinable
    public init(lookingUp name: String) {
        self.name = name
        isKnownASCII = false
    }

    /// Wraps a literal key.
    /// - Parameter value: The key.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { name }

    /// Whether two keys have the same UTF-8 bytes.
    @inlinable
    public static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        // Keys with the same bytes are equal strings; `String` rules out most others quickly.
        guard lhs.name == rhs.name else { return false }
        let count = lhs.name.utf8.count
        guard count == rhs.name.utf8.count else { return false }
        if lhs.isKnownASCII || rhs.isKnownASCII { return true }
        guard count > 0 else { return true }
        return withBytes(of: lhs.name) { left in
            withBytes(of: rhs.name) { right in memcmp(left.baseAddress!, right.baseAddress!, count) == 0 }
        }
    }

    /// Orders keys by their UTF-8 bytes, which is the order of their code points.
    public static func < (lhs: ExactKey, rhs: ExactKey) -> Bool {
        lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
    }

    /// Hashes the key's UTF-8 bytes, then a byte no UTF-8 text holds, as `String` ends its own.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        Self.withBytes(of: name) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(0xFF as UInt8)
    }

    /// Runs `body` with the UTF-8 bytes of `name`: in place for a native string (every string on Linux, and every
    /// Swift string on Apple platforms), and from a contiguous copy for a bridged `NSString`, so that both hash
    /// the same bytes alike.
    @inlinable
    static func withBytes<Result>(of name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = name.utf8.withContiguousStorageIfAvailable(body) { return result }
        var contiguous = name
        return contiguous.withUTF8(body)
    }
}

@_spi(Internal) extension [ExactKey] {
    /// The keys' names, in the same order.
    public var names: [String] { map(\.name) }
}
