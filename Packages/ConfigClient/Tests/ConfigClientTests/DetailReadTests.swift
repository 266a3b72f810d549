@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigStore
@_spi(Testing) import ConfigTesting
@_spi(Internal) import ConfigTransport
import Foundation
import TestSupport
import Testing

/// `evaluation(for:default:)` and its JSON and typed-key forms: the value and its evaluation from one
/// read, the same evaluation that `evaluations` publishes, the hooks see and telemetry counts, with the
/// source of each read.
@Suite("Detail reads", .timeLimit(.minutes(1)))
struct DetailReadTests {
    typealias Theme = EvaluationTests.Theme

    @Test("a served value's detail: value, reason, value id, not the default, from live values")
    func servedValue() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "user-1"))
        let detail = fixture.client.evaluation(for: "dark-mode", default: false)
        #expect(detail.value == true)
        #expect(detail.evaluation.key == "dark-mode")
        #expect(detail.evaluation.value.as(Bool.self) == true)
        #expect(detail.evaluation.reason == .foundMatch)
        #expect(detail.evaluation.valueID == "on")
        #expect(!detail.evaluation.isDefaultValue)
        #expect(detail.evaluation.source == .live)
        #expect(detail.evaluation.context?.id == "user-1")
    }

    @Test("a default's detail says why, and that the value came from code", arguments: [false, true])
    func defaultValue(initialized: Bool) async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        if initialized { await fixture.client.initialize() }
        let missing = fixture.client.evaluation(for: "missing", default: 7)
        #expect(missing.value == 7)
        #expect(missing.evaluation.reason == (initialized ? .configStateMissing : .clientNotReady))
        #expect(missing.evaluation.isDefaultValue)
        #expect(missing.evaluation.valueID == nil)
        #expect(missing.evaluation.source == .codeDefault)
        let unreadable = fixture.client.evaluation(for: "greeting", default: false)
        #expect(unreadable.value == false)
        #expect(unreadable.evaluation.source == .codeDefault)
    }

    @Test("a value served without a value id has the id of its text, on every read, and a new one when it changes")
    func computedValueID() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let first = fixture.client.evaluation(for: "greeting", default: "")
        #expect(first.evaluation.valueID == ValueID(of: "hello").rawValue)
        // Read again: the id the first read computed and kept.
        #expect(fixture.client.evaluation(for: "greeting", default: "") == first)
        var events = fixture.client.events.makeAsyncIterator()
        try fixture.server.serve(.strings(["greeting": "hi"]))
        #expect(await events.next() == .configsUpdated(ConfigsUpdate(keys: ["greeting"])))
        let changed = fixture.client.evaluation(for: "greeting", default: "")
        #expect(changed.value == "hi")
        #expect(changed.evaluation.valueID == ValueID(of: "hi").rawValue)
        #expect(
            fixture.client.evaluation(for: "greeting", default: "").evaluation.valueID == changed.evaluation.valueID)
    }

    @Test("the JSON and typed-key forms read as value(for:) does")
    func otherForms() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let fallback = Theme(primary: "", cornerRadius: 0)
        let theme = fixture.client.evaluation(for: "theme", as: Theme.self, default: fallback)
        #expect(theme.value == Theme(primary: "#101010", cornerRadius: 8))
        #expect(theme.evaluation.reason == .foundMatch)
        #expect(theme.evaluation.valueID != nil)
        let notJSON = fixture.client.evaluation(for: "greeting", as: Theme.self, default: fallback)
        #expect(notJSON.value == fallback)
        #expect(notJSON.evaluation.reason == .typeMismatch)
        let typed = fixture.client.evaluation(for: ConfigKey("max-items", default: 0))
        #expect(typed.value == 20)
        #expect(typed == fixture.client.evaluation(for: "max-items", default: 0))
        let typedJSON = fixture.client.evaluation(for: JSONConfigKey("theme", as: Theme.self, default: fallback))
        #expect(typedJSON.value == theme.value)
        #expect(typedJSON.evaluation.valueID == theme.evaluation.valueID)
    }

    @Test("each read's source follows the values served: bundled, kept on the device, then live")
    func sourcePerRead() async throws {
        let provider = InMemoryCachingProvider()
        let user = ConfigDirectorContext(id: "user-1")
        #expect(try await keepSampleValues(in: provider, for: user))
        let fixture = try ClientFixture(
            answer: .hold, caching: CachingOptions(provider: provider),
            bundledValues: BundledValues(["greeting": "bundled"]))
        defer { fixture.client.close() }
        #expect(fixture.client.evaluation(for: "greeting", default: "").evaluation.source == .bundledValues)
        #expect(fixture.client.evaluation(for: "dark-mode", default: false).evaluation.source == .codeDefault)
        var events = fixture.client.events.makeAsyncIterator()
        let initialization = Task { await fixture.client.initialize(context: user) }
        guard case .configsUpdated = await events.next() else {
            Issue.record("expected configsUpdated when the kept values load")
            return
        }
        let kept = fixture.client.evaluation(for: "greeting", default: "")
        #expect(kept.value == "hello")
        #expect(kept.evaluation.source == .keptValues)
        try fixture.transport.deliver(.strings(["greeting": "live"], kind: .full))
        #expect(fixture.client.evaluation(for: "greeting", default: "").evaluation.source == .live)
        await initialization.value
    }

    @Test("a detail read is one evaluation: published once, seen by the hooks once, counted once")
    func oneEvaluation() async throws {
        let hook = EvaluationRecordingHook()
        let fixture = try ClientFixture(hooks: [hook])
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        let detail = fixture.client.evaluation(for: "dark-mode", default: false)
        #expect(await evaluations.next() == detail.evaluation)
        #expect(hook.results.withLock { $0 } == [detail.evaluation])
        let batch = try await flushedBatch(fixture)
        #expect(batch.evaluatedConfigs.map(\.event.key) == ["dark-mode"])
        #expect(batch.evaluatedConfigs.first?.count == 1)
    }
}

/// Records the result of each evaluation its after stage is told.
private struct EvaluationRecordingHook: ConfigDirectorHook {
    let results = Protected([ConfigEvaluation]())

    func afterEvaluation(_ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData)
        throws
    {
        results.withLock { $0.append(result) }
    }
}
