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
    /// Whether a message at `level` would be passed to ``log(_:message:error:)``.
    /// - Parameter level: The message's level.
    /// - Returns: `true` when `level` is not ``ConfigDirectorLogLevel/off`` and is at most ``level``.
    public func isEnabled(_ level: ConfigDirectorLogLevel) -> Bool {
        level != .off && level <= self.level
    }

    /// Logs a message, building it only when `level` is enabled.
    ///
    /// The SDK logs through this method, so a message more verbose than the logger's ``level`` costs
    /// nothing: its text is never built and ``log(_:message:error:)`` is not called.
    /// - Parameters:
    ///   - level: The message's level.
    ///   - message: The message, built only when it will be logged.
    ///   - error: The error behind the message, if any.
    public func logIfEnabled(
        _ level: ConfigDirectorLogLevel,
        _ message: @autoclosure () -> String,
        error: (any Error)? = nil
    ) {
        guard isEnabled(level) else { return }
        log(level, message: message(), error: error)
    }
}
