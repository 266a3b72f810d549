public import Foundation

/// A config's key, equal to another only when their UTF-8 bytes are the same.
///
/// Swift's `String` compares and hashes by Unicode canonical equivalence, so "café" spelled with U+00E9 and
/// with "e" and U+0301 would be one dictionary key; JSON member names, and the service, compare code points,
/// and a set may hold both spellings with different values. Everything the client keeps per key (its configs,
/// its watchers, its telemetry, the kept entry) is keyed by this type, and the app's key is looked up the same
/// way, so that each spelling reads its own config. (The client's evaluation index wraps it in a key that also
/// knows whether it is ASCII, so that a read costs what a `String` lookup does.)
@_spi(Internal)
public struct ExactKey: Sendable, Hashable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The key as the service and the app spell it.
    public let name: String

    /// Wraps a key; nothing is copied or normalized.
    /// - Parameter name: The key.
    @inlinable
    public init(_ name: String) {
        self.name = name
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
        let count = lhs.name.utf8.count
        guard count == rhs.name.utf8.count else { return false }
        guard count > 0 else { return true }
        return withBytes(of: lhs.name) { left in
            withBytes(of: rhs.name) { right in memcmp(left.baseAddress!, right.baseAddress!, count) == 0 }
        }
    }

    /// Orders keys as `String` orders them, and spellings that `String` holds equal by their UTF-8 bytes (the
    /// order of their code points), so that two different keys are never unordered. (`String`'s order is the fast
    /// one: sorting the keys of a full set by bytes alone took 40% longer.)
    @inlinable
    public static func < (lhs: ExactKey, rhs: ExactKey) -> Bool {
        if lhs.name < rhs.name { return true }
        if rhs.name < lhs.name { return false }
        return withBytes(of: lhs.name) { left in
            withBytes(of: rhs.name) { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
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

extension ExactKey {
    /// The names of `keys`, in the keys' order: sorted as `String` sorts them (one comparison each), then each run
    /// of spellings that `String` holds equal by their bytes.
    public static func sortedNames(_ keys: some Sequence<ExactKey>) -> [String] {
        var names = keys.map(\.name)
        names.sort()
        var start = 0
        while start < names.count {
            var end = start + 1
            while end < names.count, names[end] == names[start] { end += 1 }
            if end - start > 1 { names[start..<end].sort { ExactKey($0) < ExactKey($1) } }
            start = end
        }
        return names
    }
}

@_spi(Internal) extension [ExactKey] {
    /// The keys' names, in the same order.
    public var names: [String] { map(\.name) }
}
