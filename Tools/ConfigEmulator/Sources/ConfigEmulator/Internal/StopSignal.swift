internal import Foundation

/// A flag raised once at shutdown, which interrupts every wait made through it.
final class StopSignal: @unchecked Sendable {
    // @unchecked Sendable: `stopped` is only read or written while `condition`'s lock is held.
    private let condition = NSCondition()
    private var stopped = false

    /// Whether the flag is raised.
    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Raises the flag and wakes every waiter.
    func fire() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits `seconds`, or less when the flag is raised.
    /// - Returns: `true` when the flag is raised.
    @discardableResult
    func wait(seconds: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return stopped
    }
}
