#if canImport(os)
internal import os
#else
internal import Foundation
#endif

/// The SDK's default logger: unified logging under the subsystem `com.configdirector.sdk` on Apple
/// platforms, standard error elsewhere.
public struct ConsoleLogger: ConfigDirectorLogger {
    /// The subsystem messages are logged under on Apple platforms.
    public static let subsystem = "com.configdirector.sdk"

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
    ///   - error: The error behind the message, if any; its description follows the message.
    public func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        guard isEnabled(level) else { return }
        let text = error.map { "\(message) (\($0))" } ?? message
        #if canImport(os)
        let logger = Logger(subsystem: Self.subsystem, category: "ConfigDirector")
        switch level {
        case .error: logger.error("\(text, privacy: .public)")
        case .warn: logger.warning("\(text, privacy: .public)")
        case .info: logger.info("\(text, privacy: .public)")
        case .debug, .off: logger.debug("\(text, privacy: .public)")
        }
        #else
        FileHandle.standardError.write(Data("[ConfigDirector] \(level): \(text)\n".utf8))
        #endif
    }
}
