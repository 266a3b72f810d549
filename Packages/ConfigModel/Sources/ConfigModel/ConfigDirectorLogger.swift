/// A destination for the SDK's log messages; conform to it to adapt another logging library.
///
/// ```swift
/// struct MyLogger: ConfigDirectorLogger {
///     let level: ConfigDirectorLogLevel = .info
///     func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) { … }
/// }
/// ```
public protocol ConfigDirectorLogger: Sendable {
    /// The most verbose level passed to ``log(_:message:error:)``; messages more verbose are never built.
    var level: ConfigDirectorLogLevel { get }

    /// Writes one message.
    /// - Parameters:
    ///   - level: The message's level, never ``ConfigDirectorLogLevel/off`` and never more verbose than ``level``.
    ///   - message: The message.
    ///   - error: The error behind the message, if any.
    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?)
}

extension ConfigDirectorLogger {
    /// Logs a message at ``ConfigDirectorLogLevel/debug``, building it only when that level is enabled.
    /// - Parameters:
    ///   - message: The message, built only when it will be logged.
    ///   - error: The error behind the message, if any.
    public func debug(_ message: @autoclosure () -> String, error: (any Error)? = nil) {
        log(ifEnabled: .debug, message, error: error)
    }

    /// Logs a message at ``ConfigDirectorLogLevel/info``, building it only when that level is enabled.
    /// - Parameters:
    ///   - message: The message, built only when it will be logged.
    ///   - error: The error behind the message, if any.
    public func info(_ message: @autoclosure () -> String, error: (any Error)? = nil) {
        log(ifEnabled: .info, message, error: error)
    }

    /// Logs a message at ``ConfigDirectorLogLevel/warn``, building it only when that level is enabled.
    /// - Parameters:
    ///   - message: The message, built only when it will be logged.
    ///   - error: The error behind the message, if any.
    public func warn(_ message: @autoclosure () -> String, error: (any Error)? = nil) {
        log(ifEnabled: .warn, message, error: error)
    }

    /// Logs a message at ``ConfigDirectorLogLevel/error``, building it only when that level is enabled.
    /// - Parameters:
    ///   - message: The message, built only when it will be logged.
    ///   - error: The error behind the message, if any.
    public func error(_ message: @autoclosure () -> String, error: (any Error)? = nil) {
        log(ifEnabled: .error, message, error: error)
    }

    /// Whether a message at `level` would be passed to ``log(_:message:error:)``: it is not
    /// ``ConfigDirectorLogLevel/off`` and at most as verbose as ``level``.
    func isEnabled(_ level: ConfigDirectorLogLevel) -> Bool {
        level != .off && level <= self.level
    }

    private func log(ifEnabled level: ConfigDirectorLogLevel, _ message: () -> String, error: (any Error)?) {
        guard isEnabled(level) else { return }
        log(level, message: message(), error: error)
    }
}
