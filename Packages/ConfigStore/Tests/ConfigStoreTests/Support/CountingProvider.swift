@_spi(Internal) import ConfigStore
import Foundation

/// An in-memory provider that counts its calls, so that tests can see how often the store writes.
final class CountingProvider: CachingProvider, @unchecked Sendable {
    // Guarded by `lock`: every access to `entry`, `writes`, `removals` and `written` takes it.
    private var entry: String?
    private var writes = 0
    private var removals = 0
    private var written: [String] = []
    private let lock = NSLock()
    private let limit: Int
    private let sibling: InMemoryCachingProvider

    init(sizeLimit: Int = 256 * 1024, entry: String? = nil) {
        limit = sizeLimit
        self.entry = entry
        sibling = InMemoryCachingProvider()
    }

    var writeCount: Int { withLock { writes } }
    var removeCount: Int { withLock { removals } }
    var writtenEntries: [String] { withLock { written } }

    func read() -> String? { withLock { entry } }

    func write(_ entry: String) {
        withLock {
            self.entry = entry
            writes += 1
            written.append(entry)
        }
    }

    func remove() {
        withLock {
            entry = nil
            removals += 1
        }
    }

    func sizeLimit() -> Int { limit }

    func instanceIDProvider() -> any CachingProvider { sibling }

    private func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
