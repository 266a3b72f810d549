/// What a size-bounded read of a kept entry found.
enum BoundedEntry: Equatable {
    /// No entry is kept.
    case absent
    /// The entry, no larger than the limit.
    case entry(String)
    /// The entry takes this many bytes, above the limit; it was not read in full.
    case tooLarge(Int)
}

/// A provider that knows its entry's size before reading it, so that the store refuses an entry above
/// the size limit without reading it whole (a file's size, a stored string's count).
protocol SizeBoundedReading: CachingProvider {
    /// The entry, or its size when it is larger than `limit` bytes, then not read in full.
    /// - Throws: When the storage cannot be read.
    func read(upTo limit: Int) throws -> BoundedEntry
}

extension CachingProvider {
    /// The entry, or its size when it is larger than `limit` bytes: found before reading for a
    /// ``SizeBoundedReading`` provider, after reading for any other.
    func boundedRead(upTo limit: Int) throws -> BoundedEntry {
        if let bounded = self as? any SizeBoundedReading { return try bounded.read(upTo: limit) }
        guard let text = try read() else { return .absent }
        let size = text.utf8.count
        return size > limit ? .tooLarge(size) : .entry(text)
    }
}
