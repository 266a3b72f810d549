public import ConfigDirector
import ConfigDirectorTesting
public import Foundation
import Testing

// Code written against the official ConfigDirector SDK's public API, compiled here with nothing
// but the documented imports: each test is one numbered point of the drop-in API, and it fails to
// compile, or fails at run time, when this SDK's spelling or behaviour differs.

// 5. An app conforms types the SDK leaves alone, without colliding with a conformance of ours.
extension URL: ConfigValue {
    public static var configValueKind: ConfigValueKind { .string }
    public init?(configValue: String) { self.init(string: configValue) }
}

extension Float: ConfigValue {
    public static var configValueKind: ConfigValueKind { .number }
    public init?(configValue: String) { self.init(configValue) }
}

extension Int64: ConfigValue {
    public static var configValueKind: ConfigValueKind { .number }
    public init?(configValue: String) { self.init(configValue) }
}

/// A number config's served text, as an app's own `ConfigValue` receives it.
private struct ServedText: ConfigValue {
    static var configValueKind: ConfigValueKind { .number }
    let text: String
    init(text: String) { self.text = text }
    init?(configValue: String) { text = configValue }
}

/// A logger adapter that an app writes: it records through the public logging helpers.
private final class AdapterLogger: ConfigDirectorLogger, @unchecked Sendable {  // `lock` guards `lines`.
    let level: ConfigDirectorLogLevel
    private let lock = NSLock()
    private var lines: [String] = []

    init(level: ConfigDirectorLogLevel) { self.level = level }

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        lock.withLock {
            lines.append("\(level.rawValue) \(message)" + (error.map { " | \($0.localizedDescription)" } ?? ""))
        }
    }

    var logged: [String] { lock.withLock { lines } }
}

@Suite("The official SDK's public API", .timeLimit(.minutes(1)))
struct OfficialAPITests {
    @Test("1. events are ClientEvent values on an AsyncStream<ClientEvent>")
    func clientEvent() async {
        let testClient = makeTestClient(values: ["k": true])
        defer { testClient.client.close() }
        let events: AsyncStream<ClientEvent> = testClient.client.events
        var iterator = events.makeAsyncIterator()
        await testClient.client.initialize(context: ConfigDirectorContext(id: "u1"))
        var seen: [ClientEvent] = []
        while seen.count < 3, let event = await iterator.next() { seen.append(event) }
        #expect(
            seen == [
                .contextUpdated(ConfigDirectorContext(id: "u1")), .ready(.initialization),
                .configsUpdated(ConfigsUpdate(keys: ["k"])),
            ])
    }

    @Test("2 and 3. ConnectionMode is top level; ConnectionOptions takes its arguments in the official order")
    func connectionOptions() throws {
        let mode: ConnectionMode = .polling
        let baseURL = try #require(URL(string: "https://proxy.example.com"))
        let options = ConnectionOptions(
            mode: mode, pollingInterval: 120, timeout: 2, baseURL: baseURL, pausesWhileBackgrounded: false)
        #expect(options.mode == .polling && options.pollingInterval == 120 && options.timeout == 2)
        #expect(options.baseURL == baseURL && !options.pausesWhileBackgrounded)
        let defaults = ConnectionOptions()
        #expect(defaults.mode == .streaming && defaults.timeout == 3 && defaults.baseURL == nil)
        #expect(defaults.pausesWhileBackgrounded)
        let interval: TimeInterval = ConnectionOptions.defaultPollingInterval
        #expect(interval == 60 && defaults.pollingInterval == interval)
        #expect([ConnectionMode.streaming, .polling, .offline].count == 3)
    }

    @Test("4. options take metadata (optional), connection and logger, then caching and values")
    func clientOptions() {
        let options = ConfigDirectorClientOptions(
            metadata: ConfigDirectorMetaContext(appName: "App", appVersion: "1.0"),
            connection: ConnectionOptions(timeout: 1),
            logger: ConsoleLogger(level: .off),
            caching: CachingOptions(enabled: false)
        )
        let metadata: ConfigDirectorMetaContext? = options.metadata
        #expect(metadata?.appName == "App" && options.connection.timeout == 1)
        #expect(ConfigDirectorClientOptions().metadata == nil)
        let offline = ConfigDirectorClientOptions(connection: ConnectionOptions(mode: .offline), values: ["k": 1])
        #expect(offline.values == ["k": .integer(1)])
    }

    @Test("5. ConfigValue refines Equatable, and the app's own conformances read configs")
    func configValue() async throws {
        func isEqual<Value: ConfigValue>(_ lhs: Value, _ rhs: Value) -> Bool { lhs == rhs }
        #expect(isEqual(true, true) && isEqual("a", "a") && isEqual(1, 1) && isEqual(2.5, 2.5))
        let testClient = makeTestClient(values: ["url": "https://example.com", "ratio": 2.5, "big": 9_000_000_000])
        defer { testClient.client.close() }
        await testClient.client.initialize()
        let fallback = try #require(URL(string: "https://fallback.example.com"))
        #expect(testClient.client.value(for: "url", default: fallback).absoluteString == "https://example.com")
        #expect(testClient.client.value(for: "ratio", default: Float(0)) == 2.5)
        #expect(testClient.client.value(for: "big", default: Int64(0)) == 9_000_000_000)
    }

    @Test("6. traits are optional TraitValues, isAnonymous an optional Bool; only set fields are encoded")
    func context() throws {
        let traits: [String: ConfigDirectorContext.TraitValue]? = [
            "s": "x", "i": 1, "d": 2.5, "b": true, "a": ["y", 2], "o": ["k": nil], "n": nil,
        ]
        let context = ConfigDirectorContext(id: "u1", name: "Ada", traits: traits, isAnonymous: true)
        #expect(context.traits?["i"] == .int(1) && context.traits?["o"] == .dictionary(["k": .null]))
        #expect(context.isAnonymous == true)
        let plain = ConfigDirectorContext(id: "u1")
        #expect(plain.traits == nil && plain.isAnonymous == nil && plain.kind == nil)
        #expect(String(decoding: try JSONEncoder().encode(plain), as: UTF8.self) == #"{"id":"u1"}"#)
        let withKind = ConfigDirectorContext(id: "acme", kind: "tenant", name: nil, traits: nil, isAnonymous: nil)
        #expect(withKind.kind == "tenant")
        let nonFinite: ConfigDirectorContext.TraitValue = .double(.infinity)
        #expect(String(decoding: try JSONEncoder().encode([nonFinite]), as: UTF8.self) == "[null]")
        let value: ConfigDirectorContext.TraitValue = ["b": 1, "a": 2, "b": 3]
        #expect(value.description == #"{"a":2,"b":3}"#)
    }

    @Test("7. errors carry the URL and read as localized descriptions")
    func errors() throws {
        let url = try #require(URL(string: "relative/path"))
        let options = ConfigDirectorClientOptions(connection: ConnectionOptions(baseURL: url))
        #expect(throws: ConfigDirectorError.invalidBaseURL(url)) {
            try ConfigDirectorClient(clientSDKKey: "key", options: options)
        }
        do {
            _ = try ConfigDirectorClient(clientSDKKey: " ")
            Issue.record("a blank key was accepted")
        } catch {
            #expect(error.localizedDescription.contains("No client SDK key was given"))
        }
        let refused: any Error = ConfigDirectorError.connectionFailed(message: "Forbidden", statusCode: 403)
        #expect(refused.localizedDescription == "Forbidden (HTTP 403)")
        let described: any LocalizedError = ConfigDirectorError.invalidBaseURL(url)
        #expect(described.errorDescription?.contains("'relative/path'") == true)
    }

    @Test("8. a logger adapter logs through the public helpers, which honour its level")
    func loggerHelpers() {
        let logger = AdapterLogger(level: .info)
        logger.debug("hidden")
        logger.info("shown")
        logger.warn("careful")
        logger.error("failed", error: ConfigDirectorError.connectionFailed(message: "Nope", statusCode: nil))
        #expect(logger.logged == ["2 shown", "1 careful", "0 failed | Nope"])
    }

    @Test("9. log levels are Int raw values, Comparable and CaseIterable")
    func logLevels() {
        let levels: [ConfigDirectorLogLevel] = ConfigDirectorLogLevel.allCases
        #expect(levels.map(\.rawValue) == [-1, 0, 1, 2, 3])
        #expect(ConfigDirectorLogLevel.off < .error && ConfigDirectorLogLevel.info < .debug)
        #expect(ConfigDirectorLogLevel(rawValue: 1) == .warn)
    }

    @Test("11. evaluation reasons print their kebab-case names")
    func reasons() async {
        let testClient = makeTestClient(values: ["flag": true])
        defer { testClient.client.close() }
        var evaluations = testClient.client.evaluations.makeAsyncIterator()
        _ = testClient.client.value(for: "flag", default: false)
        #expect(await evaluations.next()?.reason.rawValue == "client-not-ready")
        #expect(EvaluationReason(rawValue: "found-match") == .foundMatch)
        #expect(EvaluationReason.typeMismatch.rawValue == "type-mismatch")
    }

    @Test("12. connect reasons describe themselves in words")
    func connectReasons() {
        let reasons: [ConnectReason] = [.initialization, .contextUpdate, .networkResume]
        #expect(reasons.map(\.description) == ["initialization", "context update", "network resume"])
    }

    @Test("13. test values are an enum of literals; a float is served in plain decimal form")
    func testValues() async {
        let someTestValue: TestValue = .float(1e-7)
        let testClient = makeTestClient(values: ["a": someTestValue, "b": 1, "f": 1e21, "o": ["x": [1, 2.0]]])
        defer { testClient.client.close() }
        await testClient.client.initialize()
        let v = 5
        testClient.setValue(.integer(v * 2), for: "b")
        #expect(testClient.client.value(for: "b", default: 0) == 10)
        #expect(testClient.client.value(for: "a", default: 0.0) == 1e-7)
        #expect(testClient.client.value(for: "a", default: ServedText(text: "none")).text == "0.0000001")
        #expect(testClient.client.value(for: "f", default: ServedText(text: "none")).text == "1000000000000000000000")
        #expect(testClient.client.value(for: "o", default: "") == #"{"x":[1,2.0]}"#)
        let value: TestValue = ["k": .object(["n": .array([.boolean(true), .string("s")])])]
        #expect(value != .object([:]))
    }
}
