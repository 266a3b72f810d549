@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// The outcome a `connect` waits for: the first of the connection opening, a fatal status, or the timeout.
final class ConnectWaiter: Sendable {
    typealias Outcome = Result<Void, ConfigDirectorError>

    private enum State {
        case pending([CheckedContinuation<Outcome, Never>])
        case resolved(Outcome)
    }

    private let state = Locked(State.pending([]))

    /// Settles the outcome; only the first call counts.
    func resolve(_ outcome: Outcome) {
        let waiting: [CheckedContinuation<Outcome, Never>] = state.withLock { state in
            guard case .pending(let continuations) = state else { return [] }
            state = .resolved(outcome)
            return continuations
        }
        for continuation in waiting {
            continuation.resume(returning: outcome)
        }
    }

    /// Waits for the outcome.
    func wait() async -> Outcome {
        await withCheckedContinuation { continuation in
            let settled: Outcome? = state.withLock { state in
                switch state {
                case .resolved(let outcome):
                    return outcome
                case .pending(var continuations):
                    continuations.append(continuation)
                    state = .pending(continuations)
                    return nil
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
