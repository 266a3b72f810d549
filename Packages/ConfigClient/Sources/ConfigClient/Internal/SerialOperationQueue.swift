@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// Runs async operations one at a time, in the order they were enqueued.
final class SerialOperationQueue: Sendable {
    private let tail = Locked<Task<Void, Never>?>(nil)

    /// Enqueues `operation` after every operation enqueued before it.
    /// - Returns: The task running the operation; awaiting it waits for the operation to end.
    @discardableResult
    func enqueue(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        tail.withLock { last in
            let previous = last
            let task = Task {
                await previous?.value
                await operation()
            }
            last = task
            return task
        }
    }
}
