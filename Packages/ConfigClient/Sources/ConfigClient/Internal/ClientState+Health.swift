@_spi(Internal) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport
internal import Foundation

/// The connection's health: what the transport and the applies note in ``ClientState/connection``, and the
/// ``ConnectionHealth`` read from it and the lifecycle.
extension ClientState {
    /// The connection's health now.
    /// - Parameter mode: The client's connection mode.
    func health(mode: ConnectionMode) -> ConnectionHealth {
        var health = ConnectionHealth(
            mode: mode,
            state: .idle,
            lastValuesReceived: connection.lastValuesReceived,
            lastFailure: connection.lastFailure
        )
        switch lifecycle {
        case .idle:
            health.state = .idle
        case .closed:
            health.state = .closed
        case _ where mode == .offline:
            // Offline mode connects to nothing: pausing and resuming it change nothing a connection would show.
            health.state = .idle
        case .paused:
            health.state = .paused
        case .connecting, .live, .stopped:
            switch connection.phase {
            case .connecting:
                health.state = .connecting
            case .open:
                health.state = .connected
            case .waiting(let until):
                health.state = .waitingToRetry(until: until)
                health.nextAttempt = until
            case .stopped(let refusal):
                health.state = .stopped(refusal: refusal)
            }
        }
        return health
    }

    /// Whether the transport's news is about a connection the client runs: one a connect began and no pause,
    /// refusal, 204 or close ended since.
    private var runsConnection: Bool {
        switch lifecycle {
        case .connecting, .live: true
        case .idle, .stopped, .paused, .closed: false
        }
    }

    /// The connection opened, or a poll succeeded.
    mutating func connectionOpened() {
        guard runsConnection else { return }
        connection.phase = .open
    }

    /// The connection or a poll failed, and tries again at `until`.
    /// - Returns: Whether it was noted (`false` for news of a connection the client no longer runs).
    mutating func connectionWillRetry(after failure: TransportFailure, at now: Date, until: Date) -> Bool {
        guard runsConnection else { return false }
        connection.phase = .waiting(until: until)
        connection.lastFailure = ConnectionHealth.Failure(
            date: now, description: failure.description, statusCode: failure.statusCode)
        return true
    }

    /// The time of the retry due at `until` came: the attempt is under way, unless something was heard since.
    mutating func retryBegan(until: Date) {
        guard connection.phase == .waiting(until: until) else { return }
        connection.phase = .connecting
    }

    /// The service stopped the connection for good: refused it (`refusal`), or ended it with a 204 (`nil`).
    /// Noted before the lifecycle's transition, while the connection still runs.
    mutating func connectionEnded(refusal: ConfigDirectorError?, at now: Date) {
        guard runsConnection else { return }
        connection.phase = .stopped(refusal)
        guard let refusal else { return }
        let statusCode = refusal.refusedStatusCode
        connection.lastFailure = ConnectionHealth.Failure(
            date: now,
            description: statusCode.map { "status \($0): refused for good" } ?? "refused for good",
            statusCode: statusCode
        )
    }

    /// A set from the service (or offline values) was applied: values arrived, so the connection is open.
    mutating func valuesReceived(at now: Date) {
        connection.lastValuesReceived = now
        connection.phase = .open
    }
}
