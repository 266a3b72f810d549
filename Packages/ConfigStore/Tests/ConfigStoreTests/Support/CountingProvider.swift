@_spi(Internal) import ConfigStore
import Foundation
import TestSupport

/// An in-memory provider that counts its calls, so that tests can see how often the store writes.
final class CountingProvider: CachingProvider {
    private struct State {
        var entry: String?
        var writes = 0
        var removals = 0
        var written: [String] = []
    }

    private let state: Protected<State>
    private let limit: Int
    private let sibling: InMemoryCachingProvider

    init(sizeLimit: Int = 256 * 1024, entry: String? = nil) {
        limit = sizeLimit
        state = Protected(State(entry: entry))
        sibling = InMemoryCachingProvider()
    }

    var writeCount: Int { state.withLock(\.writes) }
    var removeCount: Int { state.withLock(\.removals) }
    var writtenEntries: [String] { state.withLock(\.written) }

    func read() -> String? { state.withLock(\.entry) }

    func write(_ entry: String) {
        state.withLock { state in
            state.entry = entry
            state.writes += 1
            state.written.append(entry)
        }
    }

    func remove() {
        state.withLock { state in
            state.entry = nil
            state.removals += 1
        }
    }

    func sizeLimit() -> Int { limit }

    func instanceIDProvider() -> any CachingProvider { sibling }
}
