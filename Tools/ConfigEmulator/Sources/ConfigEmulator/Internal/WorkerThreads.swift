internal import Foundation

/// The threads an emulator starts, counted so that shutdown can wait until every one has returned.
final class WorkerThreads: @unchecked Sendable {
    // @unchecked Sendable: `running` is only read or written while `condition`'s lock is held.
    private let condition = NSCondition()
    private var running = 0
    private let stackSize: Int

    init(stackSize: Int = 1 << 20) {
        self.stackSize = stackSize
    }

    /// The number of threads whose body has not returned yet.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    /// Starts `body` on a new thread.
    func spawn(name: String, _ body: @escaping @Sendable () -> Void) {
        condition.lock()
        running += 1
        condition.unlock()
        let thread = Thread { [self] in
            body()
            condition.lock()
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }

    /// Waits until every thread's body has returned, or the deadline passes.
    /// - Returns: `true` when no thread is left.
    @discardableResult
    func join(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while running > 0 {
            if !condition.wait(until: deadline) { return running == 0 }
        }
        return true
    }
}
