@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// A ``CachingProvider`` that keeps the entry in memory only: for tests, and for apps that want
/// nothing written to disk.
///
/// Its instance id lives in memory as well, so it lasts as long as the provider: an app that creates
/// one per launch gets a new instance id, and a new percentage-rollout bucket, on every launch.
public final class InMemoryCachingProvider: CachingProvider, SizeBoundedReading {
    private let entry = Locked<String?>(nil)
    private let limit: Int
    private let instanceIDEntry = Locked<InMemoryCachingProvider?>(nil)

    /// Creates an empty in-memory provider.
    /// - Parameter sizeLimit: The largest entry kept, in bytes; 256 KB by default.
    public init(sizeLimit: Int = 256 * 1024) {
        limit = sizeLimit
    }

    /// The entry held, if any.
    public func read() -> String? { entry.withLock { $0 } }

    /// Holds `entry`.
    public func write(_ entry: String) { self.entry.withLock { $0 = entry } }

    /// Drops the entry held.
    public func remove() { entry.withLock { $0 = nil } }

    /// The size limit given at creation.
    public func sizeLimit() -> Int { limit }

    /// The entry held, or its size when above `limit` bytes.
    func read(upTo limit: Int) -> BoundedEntry {
        entry.withLock { entry in
            guard let entry else { return .absent }
            let size = entry.utf8.count
            return size > limit ? .tooLarge(size) : .entry(entry)
        }
    }

    /// Another in-memory provider, created on the first call and the same one afterwards.
    public func instanceIDProvider() -> any CachingProvider {
        instanceIDEntry.withLock { sibling in
            if let sibling { return sibling }
            let created = InMemoryCachingProvider(sizeLimit: 1024)
            sibling = created
            return created
        }
    }
}
