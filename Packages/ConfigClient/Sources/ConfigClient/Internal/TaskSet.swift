@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// The unstructured tasks an owner starts, so that it can cancel them all when it closes.
///
/// A task leaves the set when it ends; a task started after ``cancelAll()`` is not started.
final class TaskSet: Sendable {
    private struct State {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var nextID: UInt64 = 0
        var isCancelled = false
    }

    private let state = Locked(State())

    /// Starts `operation` as a task of the set.
    /// - Returns: The task's id in the set, or `nil` when the set was cancelled.
    @discardableResult
    func start(_ operation: @escaping @Sendable () async -> Void) -> UInt64? {
        state.withLock { state in
            guard !state.isCancelled else { return nil }
            let id = state.nextID
            state.nextID += 1
            // Inserted before the task can end: its removal waits for this lock.
            state.tasks[id] = Task { [weak self] in
                await operation()
                self?.state.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
            return id
        }
    }

    /// Cancels the task `id`, if it still runs.
    func cancel(_ id: UInt64?) {
        guard let id else { return }
        state.withLock { $0.tasks.removeValue(forKey: id) }?.cancel()
    }

    /// Waits until every task of the set has ended, those started while it waits too; a task
    /// cancelled by ``cancel(_:)`` or ``cancelAll()`` has left the set and is not waited for.
    func idle() async {
        while let task = state.withLock({ $0.tasks.values.first }) {
            await task.value
        }
    }

    /// Whether no task of the set runs.
    var isEmpty: Bool { state.withLock(\.tasks.isEmpty) }

    /// Cancels every task, and every task started later.
    func cancelAll() {
        let tasks = state.withLock { state in
            state.isCancelled = true
            defer { state.tasks = [:] }
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }
}
