#if OpenFeature
@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigOpenFeature
import ConfigTesting
import Foundation
import Logging
import OpenFeature
import Testing
import TestSupport

/// Error codes, reasons and metadata of resolutions, as OpenFeature's client, its hooks and its
/// logger see them.
@Suite("Provider resolution details", .timeLimit(.minutes(1)))
struct ProviderResolutionDetailsTests {
    private static let values: [String: TestValue] = [
        "flag": true, "greeting": "hello", "empty": "", "max-items": 20, "huge": 1e30, "settings": ["on": true],
    ]

    @Test("an abnormal read returns the default with an error code, reason error and a message naming key and type")
    func errorCodes() async {
        let harness = ProviderHarness(values: Self.values)
        defer { harness.stop() }
        await harness.register()
        let client = harness.client

        let missing = client.getBooleanDetails(key: "missing", defaultValue: true)
        #expect(missing.value)
        #expect(missing.errorCode == .flagNotFound)
        #expect(missing.reason == Reason.error.rawValue)
        #expect(missing.errorMessage?.contains("'missing'") == true)

        let mismatch = client.getBooleanDetails(key: "max-items", defaultValue: true)
        #expect(mismatch.value)
        #expect(mismatch.errorCode == .typeMismatch)
        #expect(mismatch.errorMessage?.contains("'max-items' is of type integer and cannot be read as Bool") == true)
        #expect(client.getStringDetails(key: "flag", defaultValue: "d").errorCode == .typeMismatch)
        #expect(client.getObjectDetails(key: "flag", defaultValue: .null).errorCode == .typeMismatch)
        #expect(client.getIntegerDetails(key: "settings", defaultValue: 1).errorCode == .typeMismatch)

        let unparseable = client.getIntegerDetails(key: "huge", defaultValue: 7)
        #expect(unparseable.value == 7)
        #expect(unparseable.errorCode == .parseError)
        #expect(unparseable.errorMessage?.contains("'huge'") == true)
        #expect(unparseable.errorMessage?.contains("Int64") == true)
        #expect(client.getBooleanDetails(key: "greeting", defaultValue: false).errorCode == .parseError)
        #expect(client.getDoubleDetails(key: "greeting", defaultValue: 0).errorCode == .parseError)

        // A config with no value: the default, reason DEFAULT, and no error.
        let empty = client.getStringDetails(key: "empty", defaultValue: "fallback")
        #expect(empty.value == "fallback")
        #expect(empty.errorCode == nil)
        #expect(empty.errorMessage == nil)
        #expect(empty.reason == Reason.defaultReason.rawValue)
    }

    @Test("a read before any config state arrived is providerNotReady")
    func notReady() async {
        let harness = ProviderHarness(values: Self.values)
        defer { harness.stop() }
        harness.testClient.holdInitialization()
        let registration = harness.startRegistering()
        #expect(await eventually { harness.testClient.contextUpdates.count == 1 })

        let early = harness.client.getBooleanDetails(key: "flag", defaultValue: false)
        #expect(!early.value)
        #expect(early.errorCode == .providerNotReady)
        #expect(early.reason == Reason.error.rawValue)
        #expect(early.errorMessage?.contains("before any config state arrived") == true)
        #expect(early.flagMetadata["valueSource"] == .string("none"))

        harness.testClient.completeInitialization()
        await registration.value
        #expect(harness.client.getBooleanDetails(key: "flag", defaultValue: false).errorCode == nil)
    }

    @Test("a local override resolves with reason static and valueSource override, announced by configurationChanged")
    func overrideIsStatic() async {
        let harness = ProviderHarness(values: Self.values)
        defer { harness.stop() }
        await harness.register()
        #expect(await harness.events.wait(for: .ready))

        harness.testClient.client.setOverride(false, for: "flag")
        #expect(await harness.events.wait { $0.last?.flagsChanged == ["flag"] })
        let details = harness.client.getBooleanDetails(key: "flag", defaultValue: true)
        #expect(!details.value)
        #expect(details.errorCode == nil)
        #expect(details.reason == Reason.staticReason.rawValue)
        #expect(details.flagMetadata["valueSource"] == .string("override"))
        #expect(details.variant == ValueID(of: "false").rawValue)

        harness.testClient.client.removeOverride(for: "flag")
        #expect(await harness.events.wait { $0.last?.flagsChanged == ["flag"] && $0.count >= 3 })
        #expect(
            harness.client.getBooleanDetails(key: "flag", defaultValue: false).flagMetadata["valueSource"]
                == .string("live"))
    }

    @Test("bundled values resolve with reason static and valueSource bundled")
    func bundledValuesAreStatic() throws {
        // Never registered, so it never connects: bundled values are served from creation on.
        let provider = try ConfigDirectorProvider(
            clientSDKKey: "YOUR-CLIENT-SDK-KEY",
            options: ConfigDirectorClientOptions(bundledValues: BundledValues(["flag": true]))
        )
        defer { provider.close() }
        let bundled = provider.getBooleanEvaluation(key: "flag", defaultValue: false, context: nil, logger: nil)
        #expect(bundled.value)
        #expect(bundled.errorCode == nil)
        #expect(bundled.reason == Reason.staticReason.rawValue)
        #expect(bundled.flagMetadata["valueSource"] == .string("bundled"))
        #expect(bundled.flagMetadata["valueId"] == .string(ValueID(of: "true").rawValue))
    }

    @Test("API, client and invocation hooks see the reason and the error code of every resolution")
    func hooksSeeDetails() async {
        let harness = ProviderHarness(values: Self.values)
        defer { harness.stop() }
        await harness.register()
        let apiHook = DetailsHook()
        let clientHook = DetailsHook()
        let invocationHook = DetailsHook()
        harness.api.addHooks(hooks: apiHook)
        let client = harness.client
        client.addHooks(clientHook)

        _ = client.getBooleanValue(key: "flag", defaultValue: false)
        _ = client.getBooleanValue(
            key: "missing", defaultValue: false, options: FlagEvaluationOptions(hooks: [invocationHook]))

        let expected = [
            DetailsHook.Seen(key: "flag", reason: Reason.unknown.rawValue, errorCode: nil),
            DetailsHook.Seen(key: "missing", reason: Reason.error.rawValue, errorCode: .flagNotFound),
        ]
        #expect(apiHook.seen == expected)
        #expect(clientHook.seen == expected)
        #expect(invocationHook.seen == [expected[1]])
        harness.api.clearHooks()
    }

    @Test(
        "the logger overloads are the real methods: a read that returns the default is logged at debug, never the SDK key"
    )
    func loggerOverloads() async {
        let harness = ProviderHarness(values: Self.values)
        defer { harness.stop() }
        await harness.register()
        let handler = RecordingLogHandler()
        let logger = Logger(label: "app") { _ in handler }

        let mismatch = harness.provider.getBooleanEvaluation(
            key: "max-items", defaultValue: false, context: nil, logger: logger)
        #expect(mismatch.errorCode == .typeMismatch)
        let withoutLogger = harness.provider.getBooleanEvaluation(key: "max-items", defaultValue: false, context: nil)
        #expect(withoutLogger.errorCode == mismatch.errorCode)
        #expect(withoutLogger.errorMessage == mismatch.errorMessage)
        _ = harness.provider.getIntegerEvaluation(key: "huge", defaultValue: 0, context: nil, logger: logger)
        _ = harness.provider.getStringEvaluation(key: "missing", defaultValue: "", context: nil, logger: logger)
        _ = harness.provider.getDoubleEvaluation(key: "max-items", defaultValue: 0, context: nil, logger: logger)
        _ = harness.provider.getObjectEvaluation(key: "settings", defaultValue: .null, context: nil, logger: logger)

        let entries = handler.entries
        #expect(entries.count == 3)
        #expect(entries.allSatisfy { $0.level == .debug })
        #expect(entries[0].message.contains("'max-items' is of type integer and cannot be read as Bool"))
        #expect(entries[1].message.contains("'huge'"))
        #expect(entries[2].message.contains("'missing'"))

        // Through OpenFeature's client, the client's logger reaches the provider.
        let client = harness.client
        client.setLogger(logger)
        _ = client.getBooleanValue(key: "greeting", defaultValue: false)
        #expect(handler.entries.count == 4)
        #expect(handler.entries.last?.message.contains("'greeting'") == true)
        #expect(!handler.entries.contains { $0.message.contains("test-client") })  // the test client's SDK key
    }
}

/// A hook that records the reason and the error code of each evaluation it sees finish.
final class DetailsHook: Hook, @unchecked Sendable {  // `recorded` is the only state, and it is locked.
    typealias HookValue = Bool

    struct Seen: Equatable {
        var key: String
        var reason: String?
        var errorCode: ErrorCode?
    }

    private let recorded = Protected<[Seen]>([])

    var seen: [Seen] { recorded.withLock { $0 } }

    func finally<HookValue>(
        ctx: HookContext<HookValue>, details: FlagEvaluationDetails<HookValue>, hints: [String: Any]
    ) {
        recorded.withLock {
            $0.append(Seen(key: details.flagKey, reason: details.reason, errorCode: details.errorCode))
        }
    }
}

/// A swift-log handler that records what it is given.
final class RecordingLogHandler: LogHandler, @unchecked Sendable {  // `recorded` is locked; the rest is set once.
    struct Entry {
        var level: Logger.Level
        var message: String
    }

    private let recorded = Protected<[Entry]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var entries: [Entry] { recorded.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorded.withLock { $0.append(Entry(level: event.level, message: event.message.description)) }
    }
}
#endif
