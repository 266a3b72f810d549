@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// The one connection a transport runs at a time, and the rules around it: each connect replaces the
/// last, `connect` waits for an outcome or the timeout, and disconnect and close stop everything at once.
///
/// A new connection's task starts only after the previous one has ended, so the events of two
/// connections never interleave; events of a replaced connection are dropped by ``emit(_:generation:)``.
final class ConnectionSlot: Sendable {
    private struct State {
        var generation = 0
        var isClosed = false
        var task: Task<Void, Never>?
        var timeoutTask: Task<Void, Never>?
        var waiter: ConnectWaiter?
    }

    private let state = Locked(State())
    private let clock: any TransportClock
    private let handler: @Sendable (TransportEvent) -> Void

    init(clock: any TransportClock, handler: @escaping @Sendable (TransportEvent) -> Void) {
        self.clock = clock
        self.handler = handler
    }

    /// Whether the slot was stopped for good by `stop(closing: true)`.
    var isClosed: Bool { state.withLock(\.isClosed) }

    /// Starts a connection that replaces the current one, then waits for its outcome or `timeout` seconds.
    /// - Parameters:
    ///   - timeout: How long to wait for the outcome.
    ///   - run: The connection's work, given its generation and the waiter to settle.
    /// - Returns: The outcome; success when the slot is closed, the connection is replaced, or time is up.
    func connect(
        timeout: Double,
        run: @escaping @Sendable (_ generation: Int, _ waiter: ConnectWaiter) async -> Void
    ) async -> ConnectWaiter.Outcome {
        let waiter = ConnectWaiter()
        let clock = self.clock
        let timeoutTask = state.withLock { state -> Task<Void, Never>? in
            guard !state.isClosed else { return nil }
            state.generation += 1
            let generation = state.generation
            let previous = state.task
            previous?.cancel()
            state.timeoutTask?.cancel()
            state.waiter?.resolve(.success(()))
            state.waiter = waiter
            state.task = Task {
                await previous?.value
                guard !Task.isCancelled else { return }
                await run(generation, waiter)
            }
            let timeoutTask = Task {
                do {
                    try await clock.sleep(seconds: timeout)
                } catch {
                    return
                }
                waiter.resolve(.success(()))
            }
            state.timeoutTask = timeoutTask
            return timeoutTask
        }
        guard let timeoutTask else { return .success(()) }
        let outcome = await withTaskCancellationHandler {
            await waiter.wait()
        } onCancel: {
            waiter.resolve(.success(()))
        }
        timeoutTask.cancel()
        return outcome
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

    /// Stops the current connection, its retries and its timeout at once; with `closing`, for good.
    /// - Returns: Whether this call closed the slot (`false` when it was closed before, or not closing).
    @discardableResult
    func stop(closing: Bool) -> Bool {
        let (task, timeoutTask, waiter, closedNow) = state.withLock { state in
            state.generation += 1
            let closedNow = closing && !state.isClosed
            if closing { state.isClosed = true }
            defer {
                state.timeoutTask = nil
                state.waiter = nil
            }
            return (state.task, state.timeoutTask, state.waiter, closedNow)
        }
        task?.cancel()
        timeoutTask?.cancel()
        waiter?.resolve(.success(()))
        return closedNow
    }
}
