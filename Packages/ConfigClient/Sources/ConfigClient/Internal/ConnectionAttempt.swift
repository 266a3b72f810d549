@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// One connect of `initialize`, `updateContext` or `resumeNetwork`, and the promise its caller awaits.
final class ConnectionAttempt: Sendable {
    /// How the wait of an attempt's caller ended.
    enum Outcome: Sendable, Equatable {
        /// Config state arrived for the attempt.
        case received
        /// The connection timeout passed first.
        case timedOut
        /// The service refused the connection for good.
        case failed(ConfigDirectorError)
        /// The service ended the connection without an error (204).
        case stopped
        /// `pauseNetwork` or `close` ended it, or the client was closed before it began.
        case interrupted
    }

    private struct State {
        var outcome: Outcome?
        var waiters: [CheckedContinuation<Outcome, Never>] = []
    }

    let reason: ConnectReason
    private let state = Locked(State())

    init(reason: ConnectReason) {
        self.reason = reason
    }

    /// Ends the wait with `outcome`, unless it has already ended.
    func resolve(_ outcome: Outcome) {
        let waiters: [CheckedContinuation<Outcome, Never>]? = state.withLock { state in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters ?? [] { waiter.resume(returning: outcome) }
    }

    /// Waits until the wait ends.
    func outcome() async -> Outcome {
        await withCheckedContinuation { continuation in
            let ended: Outcome? = state.withLock { state in
                if let outcome = state.outcome { return outcome }
                state.waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }
}
