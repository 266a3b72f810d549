internal import Foundation

#if canImport(os)
internal import os
#endif

/// The SDK's default logger: unified logging under the subsystem `com.configdirector.sdk` and the
/// category `ConfigDirector` on Apple platforms, standard error elsewhere.
///
/// Debug messages carry config values and contexts, so unified logging records them as private;
/// the other levels are public. An error is appended to its message as `: <localizedDescription>`.
public struct ConsoleLogger: ConfigDirectorLogger {
    /// The subsystem messages are logged under on Apple platforms.
    static let subsystem = "com.configdirector.sdk"
    /// The category messages are logged under on Apple platforms.
    static let category = "ConfigDirector"

    /// The most verbose level logged.
    public let level: ConfigDirectorLogLevel

    /// Creates a console logger.
    /// - Parameter level: The most verbose level logged; warnings and errors by default.
    public init(level: ConfigDirectorLogLevel = .warn) {
        self.level = level
    }

    /// Writes one message to unified logging or standard error, when `level` is enabled.
    /// - Parameters:
    ///   - level: The message's level.
    ///   - message: The message.
    ///   - error: The error behind the message, if any; its `localizedDescription` follows the message.
    public func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        guard isEnabled(level) else { return }
        let text = Self.text(of: message, error: error)
        #if canImport(os)
        let logger = Logger(subsystem: Self.subsystem, category: Self.category)
        switch level {
        case .error: logger.error("\(text, privacy: .public)")
        case .warn: logger.warning("\(text, privacy: .public)")
        case .info: logger.info("\(text, privacy: .public)")
        case .debug, .off: logger.debug("\(text, privacy: .private)")
        }
        #else
        FileHandle.standardError.write(Data("[ConfigDirector] \(level): \(text)\n".utf8))
        #endif
    }

    /// The line written for `message` and `error`: the message, then `: ` and the error's `localizedDescription`.
    static func text(of message: String, error: (any Error)?) -> String {
        guard let error else { return message }
        return "\(message): \(error.localizedDescription)"
    }
}
