@_spi(Internal) @_spi(Testing) import ConfigStore
import Foundation

/// Runs the store's coalesced writes when the test says so, instead of after real time.
final class ManualScheduler: @unchecked Sendable {
    // Guarded by `lock`: every access to `works` and `delays` takes it.
    private var works: [@Sendable () -> Void] = []
    private var delays: [TimeInterval] = []
    private let lock = NSLock()

    /// The function to give the store.
    var schedule: KeptValuesStore.WriteScheduler {
        { [self] delay, work in
            lock.lock()
            defer { lock.unlock() }
            delays.append(delay)
            works.append(work)
        }
    }

    /// The delays asked for so far.
    var scheduledDelays: [TimeInterval] {
        lock.lock()
        defer { lock.unlock() }
        return delays
    }

    /// Runs the work scheduled so far, as if its delay had passed.
    func fireAll() {
        lock.lock()
        let due = works
        works = []
        lock.unlock()
        for work in due { work() }
    }
}
