import ConfigClient
import ConfigModel
import ConfigTesting
import Foundation
import ModelTestSupport
import TestSupport
import Testing

/// A hook of the app's, as a test of the app checks it: it records what it sees.
private final class RecordingHook: ConfigDirectorHook {
    let evaluations = Protected<[ConfigEvaluation]>([])
    let contextChanges = Protected<[(reason: ConnectReason, isReady: Bool)]>([])

    func afterEvaluation(_ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData) {
        evaluations.withLock { $0.append(result) }
    }

    func afterContextChange(_ change: ContextChangeHookContext, isReady: Bool, data: ConfigDirectorHookData) {
        contextChanges.withLock { $0.append((change.reason, isReady)) }
    }
}

/// A hook of the app's with a bug: every before stage throws.
private struct ThrowingHook: ConfigDirectorHook {
    struct Failure: Error {}

    func beforeEvaluation(_ evaluation: EvaluationHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData
    {
        throw Failure()
    }
}

@Suite("The test client with the app's hooks, bundled values and logger", .timeLimit(.minutes(1)))
struct AppOptionsTests {
    @Test("the app's hook sees the test client's evaluations, initialize included")
    func hookSeesEvaluations() async {
        let hook = RecordingHook()
        let testClient = makeTestClient(values: ["greeting": "hello"], hooks: [hook])
        defer { testClient.client.close() }
        testClient.client.value(for: "greeting", default: "none")
        await testClient.client.initialize()
        testClient.client.value(for: "greeting", default: "none")

        let evaluations = hook.evaluations.withLock { $0 }
        #expect(evaluations.map(\.key) == ["greeting", "greeting"])
        #expect(evaluations.map(\.reason) == [.clientNotReady, .foundMatch])
        #expect(evaluations.last?.value.as(String.self) == "hello")
        #expect(evaluations.last?.source == .live)
        let changes = hook.contextChanges.withLock { $0 }
        #expect(changes.map(\.reason) == [.initialization])
        #expect(changes.map(\.isReady) == [true])
    }

    @Test("a bundled file's values are served before the test's values arrive, and while initialize is held")
    func bundledFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("configdirector-defaults.json")
        try Data(
            #"""
            {
              "kind": "full",
              "configs": {
                "dark-mode": { "key": "dark-mode", "type": "boolean", "value": true },
                "greeting": { "key": "greeting", "type": "string", "value": "bundled" }
              }
            }
            """#.utf8
        ).write(to: file)
        let hook = RecordingHook()
        let testClient = try makeTestClient(
            values: ["greeting": "live"], hooks: [hook], bundledValues: BundledValues(contentsOf: file))
        defer { testClient.client.close() }
        let client = testClient.client
        #expect(client.value(for: "dark-mode", default: false))
        #expect(client.value(for: "greeting", default: "code") == "bundled")
        #expect(client.valueSource == .bundledValues)
        #expect(hook.evaluations.withLock { $0.map(\.source) } == [.bundledValues, .bundledValues])

        testClient.holdInitialization()
        let initialization = Task { await client.initialize() }
        #expect(await eventually { client.isInitializing }, "initialize did not start")
        #expect(client.value(for: "greeting", default: "code") == "bundled")
        testClient.completeInitialization()
        await initialization.value

        // As on a real client, the live set replaces the bundled values whole: the key it lacks is gone.
        #expect(client.valueSource == .live)
        #expect(client.value(for: "greeting", default: "code") == "live")
        #expect(client.value(for: "dark-mode", default: false) == false)
    }

    @Test("bundled values that cannot be loaded are the error the client's initializer throws")
    func invalidBundledValues() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).json")
        let error = #expect(throws: ConfigDirectorError.self) {
            try makeTestClient(bundledValues: BundledValues(contentsOf: missing))
        }
        #expect(error.map { if case .invalidBundledValues(missing.path, _) = $0 { true } else { false } } == true)
        #expect(
            throws: ConfigDirectorError.invalidBundledValues(
                file: nil, reason: "the value of 'ratio' cannot be served: nan is not a finite number")
        ) {
            try makeTestClient(bundledValues: ["ratio": .float(.nan)])
        }
    }

    @Test("the logger receives the SDK's log lines: a hook's throw is logged once, as an error")
    func loggerReceivesLogLines() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], logger: logger, hooks: [ThrowingHook()])
        defer { testClient.client.close() }
        await testClient.client.initialize()
        #expect(testClient.client.value(for: "greeting", default: "none") == "hello")
        #expect(testClient.client.value(for: "greeting", default: "none") == "hello")
        let errors = logger.lines(at: .error)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("The hook 'ThrowingHook' threw") == true)
    }
}
