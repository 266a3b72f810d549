@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// Runs async operations one at a time, in the order they were enqueued.
final class SerialOperationQueue: Sendable {
    private struct State {
        var tail: Task<Void, Never>?
        /// The operations enqueued that have not ended.
        var unfinished = 0
        /// The operations whose task runs and waits for the operation before it to end.
        var waiting = 0
    }

    private let state = Locked(State())

    /// Enqueues `operation` after every operation enqueued before it.
    /// - Returns: The task running the operation; awaiting it waits for the operation to end.
    @discardableResult
    func enqueue(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let state = state
        return state.withLock { current in
            let previous = current.tail
            current.unfinished += 1
            let task = Task {
                if let previous {
                    state.withLock { $0.waiting += 1 }
                    await previous.value
                    state.withLock { $0.waiting -= 1 }
                }
                await operation()
                state.withLock { $0.unfinished -= 1 }
            }
            current.tail = task
            return task
        }
    }

    /// How many operations wait for the one before them to end: each has begun to run and is held
    /// at its turn. A test waits for it to know that an operation would have run by now if it did not
    /// wait for its turn.
    var waitingCount: Int { state.withLock(\.waiting) }

    /// Whether every operation enqueued has ended.
    var isIdle: Bool { state.withLock { $0.unfinished == 0 } }

    /// Waits until every operation enqueued before the call, or while it waits, has ended.
    func idle() async {
        while let last = state.withLock({ $0.unfinished > 0 ? $0.tail : nil }) {
            await last.value
        }
    }
}
