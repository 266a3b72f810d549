internal import Foundation

/// Runs operations one at a time, each after the one enqueued before it has ended, suspensions included:
/// the one serial queue of the SDK (the client's lifecycle operations, telemetry's sends, the kept
/// values' storage).
///
/// An operation is a task of the cooperative pool, so it must not block: blocking work, such as a caching
/// provider's file I/O, runs on threads of its own (ConfigStore's storage threads) while the operation
/// suspends.
@_spi(Internal) public final class SerialQueue: Sendable {
    private struct State {
        /// The last operation enqueued; the next one starts after it.
        var tail: Task<Void, Never>?
        /// The operations enqueued that have not ended.
        var unfinished = 0
        /// The operations whose task runs and waits for the operation before it to end.
        var waiting = 0
    }

    private let state = Locked(State())

    /// Creates an empty queue.
    public init() {}

    /// Enqueues `operation` after every operation enqueued before it, and returns at once.
    /// - Parameter operation: The work; it runs on the cooperative pool and must not block.
    /// - Returns: The task running the operation; awaiting its value waits for the operation to end.
    @discardableResult
    public func enqueue(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
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

    /// How many operations wait for the one before them to end: each has begun to run and is held at its
    /// turn. A test waits for it to know that an operation would have run by now if it did not wait for
    /// its turn.
    public var waitingCount: Int { state.withLock(\.waiting) }

    /// Whether every operation enqueued has ended.
    public var isIdle: Bool { state.withLock { $0.unfinished == 0 } }

    /// Waits until every operation enqueued before the call, or while it waits, has ended.
    public func idle() async {
        while let last = state.withLock({ $0.unfinished > 0 ? $0.tail : nil }) {
            await last.value
        }
    }

    /// Enqueues `operation` after every operation enqueued before it, and waits for its result.
    /// - Parameter operation: The work; it runs on the cooperative pool and must not block.
    /// - Returns: What the operation returned.
    public func perform<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            enqueue { continuation.resume(returning: await operation()) }
        }
    }
}
