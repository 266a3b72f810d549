@_spi(Internal) import ConfigTransport
import Foundation

/// A clock that moves only when a test advances it, so timeouts and flush timers run without waiting.
final class ManualClock: TransportClock, @unchecked Sendable {
    private struct Sleeper {
        var id: UInt64
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    // Every stored property is guarded by `lock`.
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    private var sleepers: [Sleeper] = []
    private var nextID: UInt64 = 0

    func now() -> Date {
        lock.withLock { current }
    }

    func sleep(seconds: Double) async throws {
        let id = lock.withLock {
            defer { nextID += 1 }
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let isCancelled = lock.withLock {
                    if Task.isCancelled { return true }
                    sleepers.append(
                        Sleeper(id: id, deadline: current.addingTimeInterval(seconds), continuation: continuation))
                    return false
                }
                if isCancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The number of tasks sleeping on the clock.
    var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Moves time forward and wakes every sleeper whose deadline passed.
    func advance(by seconds: Double) {
        let woken = lock.withLock { () -> [Sleeper] in
            current = current.addingTimeInterval(seconds)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }
}
