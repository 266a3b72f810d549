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
