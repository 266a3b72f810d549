#if Logging
@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
import ConfigModel
import ConfigStore
import Foundation
import Logging
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// A swift-log handler that keeps every message it is given, at the log level it was made with.
private struct KeepingLogHandler: LogHandler {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
        let source: String
    }

    let kept = Protected([Entry]())
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let entry = Entry(
            level: event.level, message: event.message.description, metadata: event.metadata ?? [:],
            source: event.source)
        kept.withLock { $0.append(entry) }
    }

    var entries: [Entry] { kept.current }
}

/// An error whose description counts how often it was read.
private struct CountingError: LocalizedError {
    let reads = Protected(0)
    var errorDescription: String? {
        reads.withLock { $0 += 1 }
        return "the disk is full"
    }
}

/// A hook whose before stage always throws `error`.
private struct ThrowingHook: ConfigDirectorHook {
    let error: any Error

    func beforeEvaluation(_ evaluation: EvaluationHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData
    { throw error }
}

@Suite("SwiftLogLogger (trait Logging)", .timeLimit(.minutes(1)))
struct SwiftLogLoggerTests {
    private static let sdkKey = "client-sdk-key-SECRET-789"

    private func logger(at logLevel: Logger.Level) -> (SwiftLogLogger, KeepingLogHandler) {
        let handler = KeepingLogHandler(logLevel: logLevel)
        return (SwiftLogLogger(Logger(label: "test") { _ in handler }), handler)
    }

    @Test(
        "each level of the SDK is written at its swift-log level, with the source ConfigDirector",
        arguments: [
            (ConfigDirectorLogLevel.debug, Logger.Level.debug), (.info, .info), (.warn, .warning), (.error, .error),
        ])
    func levelsMap(level: ConfigDirectorLogLevel, expected: Logger.Level) throws {
        let (logger, handler) = logger(at: .trace)
        logger.log(level, message: "a message", error: nil)
        let entry = try #require(handler.entries.first)
        #expect(handler.entries.count == 1)
        #expect(entry.level == expected)
        #expect(entry.message == "a message")
        #expect(entry.source == "ConfigDirector")
        #expect(entry.metadata.isEmpty)
    }

    @Test(
        "the logger's level is the most verbose level of the SDK's that the Logger's logLevel lets through",
        arguments: [
            (Logger.Level.trace, ConfigDirectorLogLevel.debug), (.debug, .debug), (.info, .info), (.notice, .warn),
            (.warning, .warn), (.error, .error), (.critical, .off),
        ])
    func levelFollowsTheLogLevel(logLevel: Logger.Level, expected: ConfigDirectorLogLevel) {
        let (logger, handler) = logger(at: logLevel)
        #expect(logger.level == expected)
        // Exactly the levels the SDK hands over reach the handler.
        logger.debug("debug")
        logger.info("info")
        logger.warn("warn")
        logger.error("error")
        let written = Set(handler.entries.map(\.message))
        let enabled = ConfigDirectorLogLevel.allCases.filter { $0 != .off && $0 <= expected }.map(\.description)
        #expect(written == Set(enabled))
    }

    @Test("an error goes in the metadata: its localized description and its type")
    func errorAsMetadata() throws {
        let (logger, handler) = logger(at: .info)
        logger.warn("Could not keep the values", error: CocoaError(.fileWriteOutOfSpace))
        let entry = try #require(handler.entries.first)
        #expect(entry.message == "Could not keep the values")
        #expect(entry.metadata["error.message"] == .string(CocoaError(.fileWriteOutOfSpace).localizedDescription))
        #expect(entry.metadata["error.type"] == .string(String(reflecting: CocoaError.self)))
    }

    @Test("a level the Logger drops builds neither the message nor the error's metadata")
    func nothingBuiltWhenOff() {
        let (logger, handler) = logger(at: .error)
        let error = CountingError()
        let built = Protected(0)
        func message() -> String {
            built.withLock { $0 += 1 }
            return "built"
        }
        logger.debug(message(), error: error)
        logger.info(message(), error: error)
        logger.warn(message(), error: error)
        // Called directly, as a caller that skipped the level check would.
        logger.log(.warn, message: "direct", error: error)
        logger.log(.off, message: "never", error: error)
        #expect(built.current == 0)
        #expect(error.reads.current == 0)
        #expect(handler.entries.isEmpty)
        logger.error(message(), error: error)
        #expect(built.current == 1)
        #expect(error.reads.current == 1)
        #expect(handler.entries.map(\.message) == ["built"])
    }

    @Test("a client logs through it: a refused key and a throwing hook, and no line or metadata carries the SDK key")
    func clientLogsThroughIt() async throws {
        let (logger, handler) = logger(at: .trace)
        let refusal = ConfigDirectorError.connectionFailed(message: "invalid SDK key", statusCode: 401)
        let client = try ConfigDirectorClient(
            clientSDKKey: Self.sdkKey,
            options: ConfigDirectorClientOptions(
                logger: logger, caching: CachingOptions(enabled: false),
                hooks: [ThrowingHook(error: CocoaError(.featureUnsupported))]),
            environment: ClientEnvironment(
                transportFactory: ScriptedTransportFactory(answer: .fail(refusal)),
                telemetry: .disabled,
                lifecycleObserver: ManualLifecycleObserver(),
                clock: ManualClock()
            )
        )
        await client.initialize()
        _ = client.value(for: "dark-mode", default: false)
        await client.closeAndWait()

        let entries = handler.entries
        let errors = entries.filter { $0.level == .error }
        #expect(errors.contains { $0.message.contains("refused (HTTP 401)") })
        let hookError = try #require(errors.first { $0.message.contains("ThrowingHook") })
        #expect(hookError.metadata["error.type"] == .string(String(reflecting: CocoaError.self)))
        #expect(entries.allSatisfy { $0.source == "ConfigDirector" })
        for entry in entries {
            let metadata = entry.metadata.values.map(\.description).joined(separator: " ")
            #expect(!entry.message.contains(Self.sdkKey) && !metadata.contains(Self.sdkKey), "\(entry.message)")
        }
    }
}
#endif
