@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// What the hooks of a test saw, in order.
private final class HookLog: Sendable {
    enum Entry: Equatable, CustomStringConvertible {
        case before(hook: String, key: String)
        case after(hook: String, key: String, data: String?)
        case beforeChange(hook: String, reason: ConnectReason, contextID: String?)
        case afterChange(hook: String, reason: ConnectReason, isReady: Bool, data: String?)

        var description: String { String(reflecting: self) }
    }

    let entries = Protected([Entry]())
    let contexts = Protected([EvaluationHookContext]())
    let results = Protected([ConfigEvaluation]())
    let threads = Protected([ObjectIdentifier]())

    var all: [Entry] { entries.withLock { $0 } }
    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
}

/// A hook that records every stage in a log and carries its name from its before stages to its after stages.
private struct RecordingHook: ConfigDirectorHook {
    let name: String
    let log: HookLog

    func beforeEvaluation(_ evaluation: EvaluationHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData
    {
        log.append(.before(hook: name, key: evaluation.key))
        log.contexts.withLock { $0.append(evaluation) }
        log.threads.withLock { $0.append(ObjectIdentifier(Thread.current)) }
        return data.merging(["from": name]) { $1 }
    }

    func afterEvaluation(_ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData)
        throws
    {
        log.append(.after(hook: name, key: evaluation.key, data: data["from"] as? String))
        log.results.withLock { $0.append(result) }
    }

    func beforeContextChange(_ change: ContextChangeHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData
    {
        log.append(.beforeChange(hook: name, reason: change.reason, contextID: change.context?.id))
        return ["from": name]
    }

    func afterContextChange(_ change: ContextChangeHookContext, isReady: Bool, data: ConfigDirectorHookData) throws {
        log.append(.afterChange(hook: name, reason: change.reason, isReady: isReady, data: data["from"] as? String))
    }
}

/// A hook whose before stages always throw, and that records what its after stages get.
private struct ThrowingHook: ConfigDirectorHook {
    struct Failure: Error {}
    let log: HookLog

    func beforeEvaluation(_ evaluation: EvaluationHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData
    {
        throw Failure()
    }

    func afterEvaluation(_ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData)
        throws
    {
        log.append(.after(hook: name, key: evaluation.key, data: data["from"] as? String))
        throw Failure()
    }
}

/// A hook that implements no stage: the defaults run.
private struct SilentHook: ConfigDirectorHook {}

private struct HookedTheme: Decodable, Equatable, Sendable {
    let primary: String
}

@Suite("Evaluation hooks", .timeLimit(.minutes(1)))
struct HookTests {
    @Test("before stages run in registration order, after stages in reverse, each with its own data")
    func order() async throws {
        let log = HookLog()
        let fixture = try ClientFixture(
            hooks: [RecordingHook(name: "a", log: log), SilentHook(), RecordingHook(name: "b", log: log)])
        defer { fixture.client.close() }
        await fixture.client.initialize()
        log.entries.withLock { $0 = [] }

        #expect(fixture.client.value(for: "dark-mode", default: false) == true)
        #expect(
            log.all == [
                .before(hook: "a", key: "dark-mode"), .before(hook: "b", key: "dark-mode"),
                .after(hook: "b", key: "dark-mode", data: "b"), .after(hook: "a", key: "dark-mode", data: "a"),
            ])
    }

    @Test("a JSON read of a type isolated to the main actor tells the stages that type, and the served document")
    @MainActor
    func mainActorJSON() async throws {
        let log = HookLog()
        let fixture = try ClientFixture(hooks: [RecordingHook(name: "a", log: log)])
        defer { fixture.client.close() }
        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        await fixture.client.initialize()

        let fallback = MainActorTheme(primary: "none", cornerRadius: 0)
        let theme = fixture.client.value(for: "theme", as: MainActorTheme.self, default: fallback)
        #expect(theme == MainActorTheme(primary: "#101010", cornerRadius: 8))
        let published = try #require(await evaluations.next())
        #expect(log.results.withLock { $0 } == [published])
        let context = try #require(log.contexts.withLock { $0 }.first)
        #expect(ObjectIdentifier(context.requestedType) == ObjectIdentifier(MainActorTheme.self))
        #expect(context.defaultValue.as(String.self) == String(describing: fallback))
        #expect(published.value.as(String.self) == ##"{"primary":"#101010","cornerRadius":8}"##)
    }

    @Test("the stages are told the key, type, context and default, then the evaluation that is published")
    func whatStagesAreTold() async throws {
        let log = HookLog()
        let fixture = try ClientFixture(hooks: [RecordingHook(name: "a", log: log)])
        defer { fixture.client.close() }
        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        await fixture.client.initialize(context: ConfigDirectorContext(id: "user-1"))

        fixture.client.value(for: "dark-mode", default: false)
        fixture.client.value(for: "greeting", default: 3)
        fixture.client.value(for: "theme", as: HookedTheme.self, default: HookedTheme(primary: "none"))
        let published = [
            try #require(await evaluations.next()), try #require(await evaluations.next()),
            try #require(await evaluations.next()),
        ]
        #expect(log.results.withLock { $0 } == published)
        #expect(published.map(\.reason) == [.foundMatch, .invalidNumber, .foundMatch])
        #expect(published[0].valueID == "on")

        let contexts = log.contexts.withLock { $0 }
        #expect(contexts.map(\.key) == ["dark-mode", "greeting", "theme"])
        #expect(ObjectIdentifier(contexts[0].requestedType) == ObjectIdentifier(Bool.self))
        #expect(ObjectIdentifier(contexts[1].requestedType) == ObjectIdentifier(Int.self))
        #expect(ObjectIdentifier(contexts[2].requestedType) == ObjectIdentifier(HookedTheme.self))
        #expect(contexts.allSatisfy { $0.context?.id == "user-1" })
        #expect(contexts[0].defaultValue.as(Bool.self) == false)
        #expect(contexts[1].defaultValue.as(Int.self) == 3)
    }

    @Test(
        "a value served without a value id has the id of its text in the hooks and the provider's resolution, on every read, and a new one when it changes"
    )
    func computedValueID() async throws {
        let log = HookLog()
        let fixture = try ClientFixture(hooks: [RecordingHook(name: "a", log: log)])
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let hello = ValueID(of: "hello").rawValue
        fixture.client.value(for: "greeting", default: "")
        fixture.client.value(for: "greeting", default: "")
        #expect(fixture.client.resolution(for: "greeting", default: "").valueID == hello)
        var events = fixture.client.events.makeAsyncIterator()
        try fixture.server.serve(.strings(["greeting": "hi"]))
        #expect(await events.next() == .configsUpdated(ConfigsUpdate(keys: ["greeting"])))
        fixture.client.value(for: "greeting", default: "")
        #expect(fixture.client.resolution(for: "greeting", default: "").valueID == ValueID(of: "hi").rawValue)
        #expect(log.results.withLock { $0 }.map(\.valueID) == [hello, hello, ValueID(of: "hi").rawValue])
        // A server's id is used as sent.
        #expect(fixture.client.resolution(for: "dark-mode", default: false).valueID == "on")
    }

    @Test("a stage that throws is skipped and logged once per hook; the value and the other hooks are unchanged")
    func throwingStage() async throws {
        let log = HookLog()
        let fixture = try ClientFixture(hooks: [ThrowingHook(log: log), RecordingHook(name: "b", log: log)])
        defer { fixture.client.close() }
        await fixture.client.initialize()
        log.entries.withLock { $0 = [] }

        for _ in 0..<3 { #expect(fixture.client.value(for: "greeting", default: "none") == "hello") }
        let round: [HookLog.Entry] = [
            .before(hook: "b", key: "greeting"), .after(hook: "b", key: "greeting", data: "b"),
            .after(hook: "ThrowingHook", key: "greeting", data: nil),
        ]
        #expect(log.all == round + round + round)
        let errors = fixture.logger.messages(at: .error)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("'ThrowingHook'") == true)
    }

    @Test("hooks run on the evaluating thread")
    func evaluatingThread() async throws {
        let log = HookLog()
        let fixture = try ClientFixture(hooks: [RecordingHook(name: "a", log: log)])
        defer { fixture.client.close() }
        await fixture.client.initialize()
        log.threads.withLock { $0 = [] }
        let client = fixture.client
        let evaluator = Protected<ObjectIdentifier?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                evaluator.withLock { $0 = ObjectIdentifier(Thread.current) }
                client.value(for: "dark-mode", default: false)
                done.resume()
            }.start()
        }
        let thread = try #require(evaluator.withLock { $0 })
        #expect(log.threads.withLock { $0 } == [thread])
    }

    @Test("the evaluations of a values(for:) stream run the hooks")
    func watchedEvaluations() async throws {
        let log = HookLog()
        let fixture = try ClientFixture(hooks: [RecordingHook(name: "a", log: log)])
        defer { fixture.client.close() }
        await fixture.client.initialize()
        log.entries.withLock { $0 = [] }

        var greetings = fixture.client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await greetings.next() == "hello")
        try fixture.server.serve(.strings(["greeting": "hi"]))
        #expect(await greetings.next() == "hi")
        let round: [HookLog.Entry] = [
            .before(hook: "a", key: "greeting"), .after(hook: "a", key: "greeting", data: "a"),
        ]
        #expect(log.all == round + round)
        #expect(log.results.withLock { $0 }.map { $0.value.as(String.self) } == ["hello", "hi"])
    }

    @Test("the context change stages run around initialize and updateContext, told whether the client is ready")
    func contextChange() async throws {
        let log = HookLog()
        let fixture = try ClientFixture(
            answer: .deliver(.sample), hooks: [RecordingHook(name: "a", log: log), RecordingHook(name: "b", log: log)])
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "first"))
        try fixture.transport.answerEveryConnect(.hold)
        let update = Task { await fixture.client.updateContext(ConfigDirectorContext(id: "second")) }
        await fixture.advance(by: 3.5)
        await update.value

        #expect(
            log.all == [
                .beforeChange(hook: "a", reason: .initialization, contextID: "first"),
                .beforeChange(hook: "b", reason: .initialization, contextID: "first"),
                .afterChange(hook: "b", reason: .initialization, isReady: true, data: "b"),
                .afterChange(hook: "a", reason: .initialization, isReady: true, data: "a"),
                .beforeChange(hook: "a", reason: .contextUpdate, contextID: "second"),
                .beforeChange(hook: "b", reason: .contextUpdate, contextID: "second"),
                .afterChange(hook: "b", reason: .contextUpdate, isReady: false, data: "b"),
                .afterChange(hook: "a", reason: .contextUpdate, isReady: false, data: "a"),
            ])
    }
}
