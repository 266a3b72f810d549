#if Logging
public import ConfigModel
internal import Foundation
public import Logging

/// A ``ConfigDirectorLogger`` that writes the SDK's messages to a swift-log `Logger`; built with the
/// package trait `Logging`.
///
/// ```swift
/// let client = try ConfigDirectorClient(
///     clientSDKKey: "YOUR-CLIENT-SDK-KEY",
///     options: ConfigDirectorClientOptions(logger: SwiftLogLogger(Logger(label: "com.example.app.configs")))
/// )
/// ```
///
/// The SDK's levels map to swift-log's `debug`, `info`, `warning` and `error`, with the source
/// `ConfigDirector`. The `Logger`'s `logLevel` decides what the SDK builds: a message the `Logger` would
/// drop is never formatted (`trace` and `debug` enable everything, `notice` enables warnings and errors,
/// `critical` nothing). An error behind a message goes in the message's metadata: `error.message` (its
/// `localizedDescription`, as ``ConsoleLogger`` writes it) and `error.type`. The SDK never hands a logger
/// its SDK key, and this one adds nothing but that metadata.
public struct SwiftLogLogger: ConfigDirectorLogger {
    /// The source of every message, in place of the module that calls the `Logger`.
    public static let source = "ConfigDirector"

    /// The swift-log logger the messages go to.
    public let logger: Logger

    /// Creates a logger that writes to `logger`.
    /// - Parameter logger: The swift-log logger; its `logLevel` and its handler decide what is written.
    public init(_ logger: Logger) {
        self.logger = logger
    }

    /// The most verbose level of the SDK's that `logger`'s `logLevel` lets through.
    public var level: ConfigDirectorLogLevel {
        switch logger.logLevel {
        case .trace, .debug: .debug
        case .info: .info
        case .notice, .warning: .warn
        case .error: .error
        case .critical: .off
        }
    }

    /// Writes one message to `logger` at the matching level, with the error as metadata; `logger` builds
    /// neither when its `logLevel` drops the level.
    /// - Parameters:
    ///   - level: The message's level; nothing is written for ``ConfigDirectorLogLevel/off``.
    ///   - message: The message.
    ///   - error: The error behind the message, if any.
    public func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        let swiftLogLevel: Logger.Level
        switch level {
        case .off: return
        case .error: swiftLogLevel = .error
        case .warn: swiftLogLevel = .warning
        case .info: swiftLogLevel = .info
        case .debug: swiftLogLevel = .debug
        }
        logger.log(
            level: swiftLogLevel,
            "\(message)",
            metadata: error.map(Self.metadata(of:)),
            source: Self.source
        )
    }

    /// The metadata that carries `error`: its localized description and its type.
    static func metadata(of error: any Error) -> Logger.Metadata {
        [
            "error.message": .string(error.localizedDescription),
            "error.type": .string(String(reflecting: type(of: error))),
        ]
    }
}
#endif
