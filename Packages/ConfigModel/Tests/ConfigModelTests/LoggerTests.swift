import Foundation
import ModelTestSupport
import Testing

@_spi(Internal) @testable import ConfigModel

@Suite("Logging", .timeLimit(.minutes(1)))
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
            switch messageLevel {
            case .debug: logger.debug(message())
            case .info: logger.info(message())
            case .warn: logger.warn(message())
            case .error: logger.error(message())
            case .off: Issue.record("off is not a message level")
            }
            let expected = loggerLevel != .off && messageLevel <= loggerLevel
            #expect(built == expected, "\(messageLevel) on a \(loggerLevel) logger")
            #expect(logger.isEnabled(messageLevel) == expected)
            #expect(
                logger.entries == (expected ? [.init(level: messageLevel, message: "message at \(messageLevel)")] : []))
        }
    }

    @Test(
        "logs nothing at level off, and never a message whose own level is off",
        arguments: ConfigDirectorLogLevel.allCases)
    func offLogsNothing(loggerLevel: ConfigDirectorLogLevel) {
        let logger = RecordingLogger(level: loggerLevel)
        #expect(!logger.isEnabled(.off))
        let silent = RecordingLogger(level: .off)
        silent.debug("never")
        silent.info("never")
        silent.warn("never")
        silent.error("never")
        #expect(silent.entries.isEmpty)
    }

    @Test("console lines append an error's localized description to the message")
    func consoleLineWithError() {
        let error = ConfigDirectorError.connectionFailed(message: "Unknown SDK key", statusCode: 401)
        #expect(ConsoleLogger.text(of: "Refused", error: error) == "Refused: Unknown SDK key (HTTP 401)")
        #expect(ConsoleLogger.text(of: "Plain", error: nil) == "Plain")
    }

    @Test("levels are the official integers")
    func levelRawValues() {
        #expect(ConfigDirectorLogLevel.allCases.map(\.rawValue) == [-1, 0, 1, 2, 3])
        #expect(ConfigDirectorLogLevel(rawValue: -1) == .off)
        #expect(ConfigDirectorLogLevel(rawValue: 3) == .debug)
    }

    @Test("passes the error along with the message")
    func passesError() {
        let logger = RecordingLogger(level: .error)
        logger.error("connection failed", error: ConfigDirectorError.missingClientSDKKey)
        #expect(logger.entries.first?.errorDescription == ConfigDirectorError.missingClientSDKKey.description)
    }

    @Test("console logger logs warnings and errors by default under the SDK's subsystem")
    func consoleLoggerDefaults() {
        let logger = ConsoleLogger()
        #expect(logger.level == .warn)
        #expect(logger.isEnabled(.error) && logger.isEnabled(.warn))
        #expect(!logger.isEnabled(.info) && !logger.isEnabled(.debug))
        #expect(ConsoleLogger.subsystem == "com.configdirector.sdk")
        #expect(ConsoleLogger.category == "ConfigDirector")
        #expect(ConsoleLogger(level: .debug).isEnabled(.debug))
        #expect(!ConsoleLogger(level: .off).isEnabled(.error))
    }
}
