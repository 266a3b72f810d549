@_spi(Internal) internal import ConfigModel

/// A key of the ``EvaluationIndex``: an ``ExactKey`` (equal only to the same bytes) that knows whether it is ASCII,
/// so that a read's lookup costs what a `String` key's does.
///
/// Equality asks `String` first (fast, and true for identical keys), then compares bytes only when neither key is
/// known to be ASCII: an ASCII key is canonically equivalent to no other key of as many UTF-8 bytes (a scalar
/// equivalent to an ASCII one is a singleton of two or more bytes, such as U+212A KELVIN SIGN, and no decomposition
/// gives ASCII alone), so once `String` holds two keys equal and their byte counts agree, one ASCII key is enough.
/// Comparing the bytes of every read's key cost about 20 ns more per read (benchmark 1); checking the keys the
/// index holds once, at an apply, costs nothing per read.
struct IndexKey: Hashable {
    let key: ExactKey
    /// Whether the key was checked to be ASCII: the keys held are, the key of a read is not (it is not scanned).
    let isKnownASCII: Bool

    /// A key the index holds, checked once.
    init(held key: ExactKey) {
        self.key = key
        isKnownASCII = key.name.utf8.allSatisfy { $0 < 0x80 }
    }

    /// The key of a read, not scanned.
    init(lookingUp name: String) {
        key = ExactKey(name)
        isKnownASCII = false
    }

    static func == (lhs: IndexKey, rhs: IndexKey) -> Bool {
        guard lhs.key.name == rhs.key.name, lhs.key.name.utf8.count == rhs.key.name.utf8.count else { return false }
        return lhs.isKnownASCII || rhs.isKnownASCII || lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        key.hash(into: &hasher)
    }
}
