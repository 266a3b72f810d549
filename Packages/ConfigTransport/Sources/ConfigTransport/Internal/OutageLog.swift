@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// Logs a transient failure once per outage, not once per attempt.
///
/// An outage starts with the first transient failure and ends when a connection delivers something.
final class OutageLog: Sendable {
    private let logger: any ConfigDirectorLogger
    private let isInOutage = Locked(false)

    init(logger: any ConfigDirectorLogger) {
        self.logger = logger
    }

    /// Logs `message` as a warning if it starts an outage, else at debug level.
    func transientFailure(_ message: @autoclosure () -> String) {
        let starts = isInOutage.withLock { isInOutage in
            defer { isInOutage = true }
            return !isInOutage
        }
        if starts {
            logger.warn(message())
        } else {
            logger.debug(message())
        }
    }

    /// Ends the outage, if there was one, with an info message.
    func recovered(_ message: @autoclosure () -> String) {
        let ended = isInOutage.withLock { isInOutage in
            defer { isInOutage = false }
            return isInOutage
        }
        if ended { logger.info(message()) }
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
