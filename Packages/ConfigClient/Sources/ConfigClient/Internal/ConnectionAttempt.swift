@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// One connect of `initialize`, `updateContext` or `resumeNetwork`, waited on until it ends.
final class ConnectionAttempt: Sendable {
    /// How an attempt ended.
    enum Outcome: Sendable, Equatable {
        /// Config state arrived for the attempt.
        case received
        /// The connection timeout passed first.
        case timedOut
        /// The service refused the connection for good.
        case failed(ConfigDirectorError)
        /// `pauseNetwork` or `close` ended it.
        case interrupted
    }

    private struct State {
        var outcome: Outcome?
        var waiters: [CheckedContinuation<Outcome, Never>] = []
    }

    let context: ConfigDirectorContext?
    let reason: ConnectReason
    private let state = Locked(State())

    init(context: ConfigDirectorContext?, reason: ConnectReason) {
        self.context = context
        self.reason = reason
    }

    /// Ends the attempt with `outcome`, unless it has already ended.
    /// - Returns: Whether this call ended it.
    @discardableResult
    func resolve(_ outcome: Outcome) -> Bool {
        let waiters: [CheckedContinuation<Outcome, Never>]? = state.withLock { state in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: outcome) }
        return true
    }

    /// Waits until the attempt ends.
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
