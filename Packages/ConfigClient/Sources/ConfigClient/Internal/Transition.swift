@_spi(Internal) internal import ConfigModel

/// What a lifecycle transition asks the core to do, apart from the state it changed: publish events
/// while the lock is still held, then, after it is released, release a waiting caller, tell the
/// transport and log.
struct Transition {
    /// What to tell the transport.
    enum TransportCall: Equatable {
        case disconnect
        case close
    }

    /// What to log.
    enum LogLine: Equatable {
        /// The connect's caller was released before config state arrived: its deadline passed, or a
        /// pause or `close` interrupted it (the reference page: a held `initialize` ended by `close` logs
        /// the timeout warning too). The client keeps retrying.
        case timedOut(ConnectReason, servesKeptValues: Bool)
        /// The service refused the connection of a connect begun for the reason, for good.
        case failed(ConnectReason, ConfigDirectorError)
        /// The service ended the connection (204).
        case stopped
    }

    /// The events to publish, in order, under the lock.
    var events: [ClientEvent] = []
    /// Whether a context took effect, so that telemetry reports what is pending under the previous one.
    var appliesContext = false
    /// The caller to release, and how its wait ended.
    var release: (attempt: ConnectionAttempt, outcome: ConnectionAttempt.Outcome)?
    /// What to tell the transport.
    var transportCall: TransportCall?
    /// What to log.
    var log: LogLine?
}
