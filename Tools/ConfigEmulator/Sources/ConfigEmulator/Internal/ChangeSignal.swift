internal import Foundation

/// A counter of changes that the admin event streams wait on: every change to what the dashboard shows
/// (configs, streams, telemetry, records) bumps it, and each waiter wakes to read the new state.
final class ChangeSignal: @unchecked Sendable {
    // @unchecked Sendable: `generation` is only read or written while `condition`'s lock is held.
    private let condition = NSCondition()
    private var generation = 0

    /// Counts a change and wakes every waiter.
    func bump() {
        condition.lock()
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the count passes `seen`, or until `deadline`.
    /// - Returns: The count now (equal to `seen` when nothing changed before the deadline).
    func wait(after seen: Int, until deadline: Date) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while generation == seen {
            if !condition.wait(until: deadline) { break }
        }
        return generation
    }
}
