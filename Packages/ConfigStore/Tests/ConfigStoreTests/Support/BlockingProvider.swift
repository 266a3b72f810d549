@_spi(Internal) import ConfigStore
import Dispatch
import Foundation
import TestSupport

/// A provider whose every call blocks until the test releases it, as a hung network mount does: it counts
/// the calls that began, that are blocked now, and the most blocked at once.
final class BlockingProvider: CachingProvider {
    private struct State {
        var started = 0
        var blocked = 0
        var mostBlocked = 0
        var isReleased = false
    }

    private let state = Protected(State())
    private let release = DispatchSemaphore(value: 0)
    private let storage = InMemoryCachingProvider(sizeLimit: .max)

    /// The calls that began.
    var startedCalls: Int { state.withLock(\.started) }
    /// The calls blocked now.
    var blockedCalls: Int { state.withLock(\.blocked) }
    /// The most calls blocked at once.
    var mostBlockedCalls: Int { state.withLock(\.mostBlocked) }

    /// What the last write left, read without blocking.
    var entry: String? { storage.read() }

    /// Lets every blocked call, and every later one, return.
    func releaseAll() {
        let waiting = state.withLock { state -> Int in
            state.isReleased = true
            return state.blocked
        }
        for _ in 0..<waiting { release.signal() }
    }

    func read() -> String? {
        block()
        return storage.read()
    }

    func write(_ entry: String) {
        block()
        storage.write(entry)
    }

    func remove() {
        block()
        storage.remove()
    }

    func sizeLimit() -> Int { storage.sizeLimit() }

    func instanceIDProvider() -> any CachingProvider { self }

    private func block() {
        let blocks = state.withLock { state -> Bool in
            state.started += 1
            guard !state.isReleased else { return false }
            state.blocked += 1
            state.mostBlocked = max(state.mostBlocked, state.blocked)
            return true
        }
        guard blocks else { return }
        release.wait()
        state.withLock { $0.blocked -= 1 }
    }
}
