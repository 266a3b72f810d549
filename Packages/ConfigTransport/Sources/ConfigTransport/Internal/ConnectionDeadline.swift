@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

/// The deadline of one connection's current wait, on the transport's monotonic clock (``TransportClock/uptime()``,
/// so that a wall clock set forward or back neither ends nor prolongs a wait): when it passes before it is
/// moved or lifted, it ends the connection (its `expire` closure cancels the exchange) and remembers why.
///
/// One connection has one deadline at a time, moved as the connection goes on: its response headers,
/// then the first bytes of its body, or the end of an error body (PROTOCOL §4).
final class ConnectionDeadline: Sendable {
    private struct State {
        /// Counts the deadlines set, so that a timer that was replaced never fires.
        var generation = 0
        var timer: Task<Void, Never>?
        var expiredReason: String?
        /// When the connection last received something (its uptime), for ``watchSilence(window:reason:)``.
        var lastActivity: Double?
        var due: Due?
    }

    /// When the current deadline passes.
    private enum Due {
        /// At an uptime.
        case at(Double)
        /// After that many seconds without anything received.
        case afterSilence(Double)
    }

    private let state = Locked(State())
    private let clock: any TransportClock
    private let expire: @Sendable () -> Void

    /// Creates a connection's deadline, set to nothing yet.
    /// - Parameters:
    ///   - clock: The clock the deadlines are counted on.
    ///   - expire: Ends the connection; called at most once, when a deadline passes.
    init(clock: any TransportClock, expire: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.expire = expire
    }

    /// Why the connection was ended by a deadline, if it was.
    var expiredReason: String? { state.withLock(\.expiredReason) }

    /// Sets the deadline `seconds` from now, replacing the one set before.
    /// - Parameters:
    ///   - seconds: How long the connection may wait.
    ///   - reason: What the logs say when the deadline passes, such as `no response headers within 30 s`.
    func set(seconds: Double, reason: String) {
        arm(.at(clock.uptime() + seconds), reason: reason)
    }

    /// Sets the deadline `window` seconds after the connection last received something, for as long as it
    /// is not moved or lifted: ``noteActivity()`` pushes it back without a new timer. Replaces the deadline
    /// set before.
    /// - Parameters:
    ///   - window: How long the connection may stay silent.
    ///   - reason: What the logs say when it stayed silent that long.
    func watchSilence(window: Double, reason: String) {
        arm(.afterSilence(window), reason: reason)
    }

    /// Replaces the deadline with `due`, and its timer with one that sleeps until it passes.
    private func arm(_ due: Due, reason: String) {
        let clock = clock
        state.withLock { state in
            guard state.expiredReason == nil else { return }
            state.generation += 1
            let generation = state.generation
            state.due = due
            if case .afterSilence = due { state.lastActivity = state.lastActivity ?? clock.uptime() }
            state.timer?.cancel()
            state.timer = Task { [weak self] in
                while let wait = self?.remaining(generation: generation) {
                    guard wait > 0 else {
                        self?.pass(generation: generation, reason: reason)
                        return
                    }
                    do {
                        try await clock.sleep(seconds: wait)
                    } catch {
                        return
                    }
                }
            }
        }
    }

    /// The seconds left before the deadline of `generation` passes; `nil` once it was moved or lifted.
    private func remaining(generation: Int) -> Double? {
        let now = clock.uptime()
        return state.withLock { state in
            guard state.generation == generation, let due = state.due else { return nil }
            switch due {
            case .at(let uptime):
                return uptime - now
            case .afterSilence(let window):
                return window - (now - (state.lastActivity ?? now))
            }
        }
    }

    /// Notes that the connection received something now: the silence watched is counted from here.
    func noteActivity() {
        let now = clock.uptime()
        state.withLock { $0.lastActivity = now }
    }

    /// Lifts the deadline: the connection may wait for ever.
    func lift() {
        state.withLock { state in
            state.generation += 1
            state.due = nil
            state.timer?.cancel()
            state.timer = nil
        }
    }

    private func pass(generation: Int, reason: String) {
        let expires = state.withLock { state in
            guard state.generation == generation, state.expiredReason == nil else { return false }
            state.expiredReason = reason
            state.timer = nil
            return true
        }
        if expires { expire() }
    }
}
