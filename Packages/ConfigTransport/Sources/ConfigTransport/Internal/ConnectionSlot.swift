@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// The one connection a transport runs at a time, and the rules around it: each connect replaces the
/// last, and disconnect and close stop everything at once.
///
/// A new connection's task starts only after the previous one has ended, so the events of two
/// connections never interleave; events of a replaced connection are dropped by ``emit(_:generation:)``.
final class ConnectionSlot: Sendable {
    private struct State {
        var generation = 0
        var isClosed = false
        var task: Task<Void, Never>?
    }

    private let state = Locked(State())
    private let handler: @Sendable (TransportEvent) -> Void

    init(handler: @escaping @Sendable (TransportEvent) -> Void) {
        self.handler = handler
    }

    /// Whether the slot was stopped for good by `stop(closing: true)`.
    var isClosed: Bool { state.withLock(\.isClosed) }

    /// Starts a connection that replaces the current one, and returns at once.
    /// - Parameter run: The connection's work, given its generation.
    /// - Returns: Whether it started (`false` once the slot is closed).
    @discardableResult
    func start(_ run: @escaping @Sendable (_ generation: Int) async -> Void) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.generation += 1
            let generation = state.generation
            let previous = state.task
            previous?.cancel()
            state.task = Task {
                await previous?.value
                guard !Task.isCancelled else { return }
                await run(generation)
            }
            return true
        }
    }

    /// Whether `generation` is still the current connection and the slot is open.
    func isCurrent(_ generation: Int) -> Bool {
        state.withLock { !$0.isClosed && $0.generation == generation }
    }

    /// Hands `event` to the owner if `generation` is still the current connection.
    /// - Returns: Whether the event was handed on.
    @discardableResult
    func emit(_ event: TransportEvent, generation: Int) -> Bool {
        guard isCurrent(generation) else { return false }
        handler(event)
        return true
    }

    /// Stops the current connection and its retries at once; with `closing`, for good.
    /// - Returns: Whether this call closed the slot (`false` when it was closed before, or not closing).
    @discardableResult
    func stop(closing: Bool) -> Bool {
        let (task, closedNow) = state.withLock { state in
            state.generation += 1
            let closedNow = closing && !state.isClosed
            if closing { state.isClosed = true }
            return (state.task, closedNow)
        }
        task?.cancel()
        return closedNow
    }
}
