@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

/// Logs an outage in a few lines, however many attempts it takes: a warning when it starts, an info line
/// when a connection delivers again ("after N failed attempts"), a second warning only if it is still going
/// after ``warningAgainAfter`` attempts (then one more info line when it ends), and debug lines for the rest.
///
/// An outage ends only once a connection that delivered is not followed by a failure within
/// ``recoveryWindow``: a server that sends a set and drops each connection at once (a flapping stream) is one
/// outage, not one per connection.
final class OutageLog: Sendable {
    /// The failed attempt of an outage that warns again.
    static let warningAgainAfter = 5
    /// How long after a connection delivered again a failure still belongs to the same outage, in seconds.
    static let recoveryWindow = 60.0

    private struct State {
        /// The failed attempts of the current outage; 0 when there is none.
        var failures = 0
        /// When a connection last delivered during the outage: an uptime (``TransportClock/uptime()``).
        var deliveredAt: Double?
        /// Whether an info line said the outage ended since its last warning.
        var hasLoggedRecovery = false
    }

    private let logger: any ConfigDirectorLogger
    private let clock: any TransportClock
    private let state = Locked(State())

    init(logger: any ConfigDirectorLogger, clock: any TransportClock) {
        self.logger = logger
        self.clock = clock
    }

    /// Counts a failed attempt, and logs `message` at `level` (a warning unless said otherwise) when it
    /// starts an outage, as a warning at its ``warningAgainAfter``-th attempt, else at debug level.
    func transientFailure(_ message: @autoclosure () -> String, startingAt level: ConfigDirectorLogLevel = .warn) {
        let now = clock.uptime()
        let failures = state.withLock { state in
            if let deliveredAt = state.deliveredAt, now - deliveredAt >= Self.recoveryWindow {
                state = State()
            }
            state.deliveredAt = nil
            state.failures += 1
            if state.failures == Self.warningAgainAfter { state.hasLoggedRecovery = false }
            return state.failures
        }
        switch failures {
        case 1 where level == .info:
            logger.info(message())
        case 1:
            logger.warn(message())
        case Self.warningAgainAfter:
            logger.warn(message() + " It is still failing after \(failures) attempts.")
        default:
            logger.debug(message() + " (attempt \(failures) of this outage)")
        }
    }

    /// Notes that a connection delivered again; logs `message` at info level the first time since the
    /// outage's last warning.
    func recovered(_ message: @autoclosure () -> String) {
        let now = clock.uptime()
        let failures = state.withLock { state -> Int? in
            guard state.failures > 0 else { return nil }
            state.deliveredAt = now
            guard !state.hasLoggedRecovery else { return nil }
            state.hasLoggedRecovery = true
            return state.failures
        }
        guard let failures else { return }
        logger.info(message() + " It reconnected after \(failures) failed attempt\(failures == 1 ? "" : "s").")
    }
}

/// A message that is logged at its level the first time, and at debug level every later time: for a
/// refusal that repeats on every attempt, such as an oversized event, so that the log says it once.
final class LogOnce: Sendable {
    private let hasLogged = Locked(false)

    /// Logs `message` to `logger` at `level` the first time, at debug level afterwards.
    func log(
        _ message: @autoclosure () -> String, at level: ConfigDirectorLogLevel, to logger: any ConfigDirectorLogger
    ) {
        let isFirst = hasLogged.withLock { logged in
            defer { logged = true }
            return !logged
        }
        switch isFirst ? level : .debug {
        case .error: logger.error(message())
        case .warn: logger.warn(message())
        case .info: logger.info(message())
        default: logger.debug(message())
        }
    }
}
