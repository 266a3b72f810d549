import ConfigModel
import Foundation
import Testing

/// A logger that keeps what it is given.
final class RecordingLogger: ConfigDirectorLogger, @unchecked Sendable {  // `lock` guards `entries`.
    struct Entry: Equatable {
        var level: ConfigDirectorLogLevel
        var message: String
        var errorDescription: String?
    }

    let level: ConfigDirectorLogLevel
    private let lock = NSLock()
    private var entries: [Entry] = []

    init(level: ConfigDirectorLogLevel) { self.level = level }

    var logged: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        // NSLock.withLock needs macOS 14, above the package's platform floor.
        lock.lock()
        defer { lock.unlock() }
        entries.append(Entry(level: level, message: message, errorDescription: error.map { "\($0)" }))
    }
}

@Suite("Logging")
struct LoggerTests {
    static let messageLevels: [ConfigDirectorLogLevel] = [.error, .warn, .info, .debug]

    @Test("orders levels from off to debug")
    func ordering() {
        #expect(ConfigDirectorLogLevel.allCases == [.off, .error, .warn, .info, .debug])
        #expect(ConfigDirectorLogLevel.off < .error)
        #expect(ConfigDirectorLogLevel.error < .warn)
        #expect(ConfigDirectorLogLevel.warn < .info)
        #expect(ConfigDirectorLogLevel.info < .debug)
        #expect(ConfigDirectorLogLevel.allCases.map(\.description) == ["off", "error", "warn", "info", "debug"])
    }

    @Test(
        "builds and logs a message only when its level is at most the logger's",
        arguments: ConfigDirectorLogLevel.allCases)
    func buildsOnlyWhenEnabled(loggerLevel: ConfigDirectorLogLevel) {
        for messageLevel in Self.messageLevels {
            let logger = RecordingLogger(level: loggerLevel)
            var built = false
            func message() -> String {
                built = true
                return "message at \(messageLevel)"
            }
            logger.logIfEnabled(messageLevel, message())
            let expected = loggerLevel != .off && messageLevel <= loggerLevel
            #expect(built == expected, "\(messageLevel) on a \(loggerLevel) logger")
            #expect(logger.isEnabled(messageLevel) == expected)
            #expect(
                logger.logged == (expected ? [.init(level: messageLevel, message: "message at \(messageLevel)")] : []))
        }
    }

    @Test(
        "logs nothing at level off, and never a message whose own level is off",
        arguments: ConfigDirectorLogLevel.allCases)
    func offLogsNothing(loggerLevel: ConfigDirectorLogLevel) {
        let logger = RecordingLogger(level: loggerLevel)
        logger.logIfEnabled(.off, "never")
        #expect(!logger.isEnabled(.off))
        let silent = RecordingLogger(level: .off)
        for level in ConfigDirectorLogLevel.allCases { silent.logIfEnabled(level, "never") }
        #expect(logger.logged.isEmpty)
        #expect(silent.logged.isEmpty)
    }

    @Test("passes the error along with the message")
    func passesError() {
        let logger = RecordingLogger(level: .error)
        logger.logIfEnabled(.error, "connection failed", error: ConfigDirectorError.missingClientSDKKey)
        #expect(logger.logged.first?.errorDescription == ConfigDirectorError.missingClientSDKKey.description)
    }

    @Test("console logger logs warnings and errors by default under the SDK's subsystem")
    func consoleLoggerDefaults() {
        let logger = ConsoleLogger()
        #expect(logger.level == .warn)
        #expect(logger.isEnabled(.error) && logger.isEnabled(.warn))
        #expect(!logger.isEnabled(.info) && !logger.isEnabled(.debug))
        #expect(ConsoleLogger.subsystem == "com.configdirector.sdk")
        #expect(ConsoleLogger(level: .debug).isEnabled(.debug))
        #expect(!ConsoleLogger(level: .off).isEnabled(.error))
    }
}
