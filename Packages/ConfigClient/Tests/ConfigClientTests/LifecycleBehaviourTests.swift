@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// The lifecycle rules of the official SDK, numbered as in the lifecycle issue, through the client's API.
@Suite("The client's lifecycle", .timeLimit(.minutes(1)))
struct LifecycleBehaviourTests {
    private static let refusal = ConfigDirectorError.connectionFailed(message: "invalid SDK key", statusCode: 401)

    // MARK: 1. Every connect clears isReady when it starts

    @Test("a second initialize, updateContext and resumeNetwork each clear isReady until their config set")
    func everyConnectClearsReadiness() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        #expect(fixture.client.isReady)
        let transport = try fixture.transport
        transport.answerEveryConnect(.hold)

        let connects: [@Sendable () async -> Void] = [
            { await fixture.client.initialize() },
            { await fixture.client.updateContext(ConfigDirectorContext(id: "u2")) },
            { await fixture.client.resumeNetwork() },
        ]
        for (count, connect) in connects.enumerated() {
            let operation = Task { await connect() }
            #expect(await eventually { transport.contexts.count == count + 2 })
            #expect(!fixture.client.isReady)
            transport.deliver(.sample)
            await operation.value
            #expect(fixture.client.isReady)
        }
        #expect(transport.reasons == [.initialization, .initialization, .contextUpdate, .networkResume])
    }

    // MARK: 2. pauseNetwork clears isReady at once and keeps the values

    @Test("pauseNetwork clears isReady at once; a held key still reads its value, a missing one clientNotReady")
    func pauseClearsReadiness() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var evaluations = fixture.client.evaluations.makeAsyncIterator()

        fixture.client.pauseNetwork()

        #expect(!fixture.client.isReady)
        #expect(fixture.client.value(for: "greeting", default: "none") == "hello")
        #expect(await evaluations.next()?.reason == .foundMatch)
        #expect(fixture.client.value(for: "missing", default: "none") == "none")
        #expect(await evaluations.next()?.reason == .clientNotReady)
    }

    // MARK: 3. close clears everything and finishes every stream

    @Test("close clears isReady and isInitializing and finishes every stream")
    func closeClearsEverything() async throws {
        let fixture = try ClientFixture(answer: .hold)
        let initialization = Task { await fixture.client.initialize() }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 1 })
        try fixture.transport.deliver(.sample)
        await initialization.value
        try fixture.transport.answerNextConnect(.hold)
        let events = fixture.client.events
        let evaluations = fixture.client.evaluations
        let watch = fixture.client.values(for: "greeting", default: "none")
        let reinitialization = Task { await fixture.client.initialize() }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 2 })

        fixture.client.close()
        await reinitialization.value

        #expect(!fixture.client.isReady)
        #expect(!fixture.client.isInitializing)
        for await _ in events {}
        for await _ in evaluations {}
        var values: [String] = []
        for await value in watch { values.append(value) }
        #expect(values == ["hello"])
        var afterClose = fixture.client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await afterClose.next() == nil)
    }

    // MARK: 4. A fatal failure leaves the context as it was

    @Test("a refused first initialize leaves the context nil, publishes no contextUpdated and logs one error")
    func refusedInitialize() async throws {
        let fixture = try ClientFixture(answer: .fail(Self.refusal))
        var events = fixture.client.events.makeAsyncIterator()

        await fixture.client.initialize(context: ConfigDirectorContext(id: "user-1"))

        #expect(fixture.client.context == nil)
        #expect(!fixture.client.isReady)
        #expect(!fixture.client.isInitializing)
        let errors = fixture.logger.entries(at: .error)
        #expect(
            errors.map(\.message) == [
                "An error occurred during initialization: the connection was refused (HTTP 401). The error "
                    + "is unrecoverable: the client will not reconnect and keeps serving the values it has."
            ])
        // The error's message is the server's body, which may echo the context: never at error level.
        #expect(errors.first?.error == nil)
        #expect(!fixture.logger.lines(at: .error).contains { $0.contains("invalid SDK key") })
        fixture.client.close()
        #expect(await events.next() == nil)
    }

    @Test("a refused updateContext keeps the previous context, serves its values, and telemetry stays on it")
    func refusedContextUpdate() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        let first = ConfigDirectorContext(id: "user-1")
        await fixture.client.initialize(context: first)
        _ = fixture.client.value(for: "dark-mode", default: false)
        try fixture.transport.answerNextConnect(.fail(Self.refusal))
        var events = fixture.client.events.makeAsyncIterator()

        await fixture.client.updateContext(ConfigDirectorContext(id: "user-2"))

        #expect(fixture.client.context == first)
        #expect(!fixture.client.isReady)
        #expect(fixture.client.value(for: "dark-mode", default: false))
        #expect(
            fixture.logger.entries(at: .error).map(\.message).map { $0.prefix { $0 != ":" } } == [
                "An error occurred during context update"
            ])
        await fixture.client.closeAndWait()
        #expect(await events.next() == nil)
        #expect(fixture.telemetry.batches.map(\.context) == [first])
    }

    // MARK: 5. A timed-out attempt applies its context and warns once

    @Test("a timed-out updateContext applies its context and logs one timeout warning")
    func timedOutContextUpdate() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        try fixture.transport.answerNextConnect(.hold)
        let user = ConfigDirectorContext(id: "user-2")
        var events = fixture.client.events.makeAsyncIterator()

        let update = Task { await fixture.client.updateContext(user) }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 2 })
        await fixture.advance(by: 3)
        await update.value

        #expect(await events.next() == .contextUpdated(user))
        #expect(fixture.client.context == user)
        let warnings = fixture.logger.messages(at: .warn)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("Timed out waiting for context update after 3.0s") == true)
        #expect(warnings.first?.contains("keeps retrying") == true)
    }

    // MARK: 6. resumeNetwork re-applies the current context

    @Test("resumeNetwork publishes contextUpdated, ready(networkResume), configsUpdated, and flushes telemetry")
    func resumeReappliesContext() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        let user = ConfigDirectorContext(id: "user-1")
        await fixture.client.initialize(context: user)
        _ = fixture.client.value(for: "dark-mode", default: false)
        fixture.client.pauseNetwork()
        var events = fixture.client.events.makeAsyncIterator()

        await fixture.client.resumeNetwork()

        #expect(await events.next() == .contextUpdated(user))
        #expect(await events.next() == .ready(.networkResume))
        guard case .configsUpdated = await events.next() else {
            Issue.record("expected configsUpdated")
            return
        }
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        #expect(fixture.telemetry.batches.first?.context == user)
        #expect(fixture.telemetry.batches.first?.evaluatedConfigs.map(\.event.key) == ["dark-mode"])
    }

    @Test("resumeNetwork on a client never initialized connects with no context, for networkResume")
    func resumeWithoutInitialize() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        var events = fixture.client.events.makeAsyncIterator()

        await fixture.client.resumeNetwork()

        #expect(try fixture.transport.contexts == [nil])
        #expect(try fixture.transport.reasons == [.networkResume])
        #expect(await events.next() == .contextUpdated(nil))
        #expect(await events.next() == .ready(.networkResume))
        #expect(!fixture.client.isInitializing)
    }

    // MARK: 7. The ready reason is the newest connect's, published once

    @Test("a config set after a timeout publishes the timed-out connect's ready once")
    func lateConfigSetPublishesReadyOnce() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        try fixture.transport.answerNextConnect(.hold)
        let update = Task { await fixture.client.updateContext(ConfigDirectorContext(id: "user-2")) }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 2 })
        await fixture.advance(by: 3)
        await update.value
        var events = fixture.client.events.makeAsyncIterator()

        try fixture.transport.deliver(.sample)
        try fixture.transport.deliver(.strings(["greeting": "bonjour"]))

        #expect(await events.next() == .ready(.contextUpdate))
        guard case .configsUpdated = await events.next(), case .configsUpdated = await events.next() else {
            Issue.record("expected two configsUpdated and no second ready")
            return
        }
        #expect(fixture.client.isReady)
    }

    // MARK: 8. Inside one config set: contextUpdated, ready, configsUpdated, then the watchers

    @Test("a watcher re-evaluates only after contextUpdated, ready and configsUpdated were published")
    func orderInsideOneConfigSet() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var watch = fixture.client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await watch.next() == "hello")
        try fixture.transport.answerNextConnect(.deliver(.strings(["greeting": "bonjour"], kind: .full)))
        let events = fixture.client.events
        let user = ConfigDirectorContext(id: "user-2")

        await fixture.client.updateContext(user)
        #expect(await watch.next() == "bonjour")
        fixture.client.close()

        var published: [ClientEvent] = []
        for await event in events { published.append(event) }
        #expect(published.prefix(2) == [.contextUpdated(user), .ready(.contextUpdate)])
        guard published.count == 3, case .configsUpdated = published[2] else {
            Issue.record("expected configsUpdated third, got \(published)")
            return
        }
    }

    // MARK: 9. The app lifecycle

    @Test("entering the background flushes telemetry and pauses; the foreground resumes that pause only")
    func background() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        _ = fixture.client.value(for: "dark-mode", default: false)

        fixture.lifecycle.send(.didEnterBackground)

        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        #expect(try fixture.transport.disconnects == 1)
        #expect(!fixture.client.isReady)
        var events = fixture.client.events.makeAsyncIterator()
        fixture.lifecycle.send(.willEnterForeground)
        #expect(await events.next() == .contextUpdated(nil))
        #expect(await events.next() == .ready(.networkResume))
    }

    @Test("the foreground tells a connection that was not paused that the network may have returned, and only it")
    func foregroundCutsBackoffShort() async throws {
        let fixture = try ClientFixture(
            answer: .deliver(.sample), connection: ConnectionOptions(pausesWhileBackgrounded: false))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        _ = fixture.client.value(for: "dark-mode", default: false)
        fixture.lifecycle.send(.didEnterBackground)
        #expect(await eventually { fixture.telemetry.batches.count == 1 }, "the background was handled")
        #expect(try fixture.transport.networkReturns == 0 && fixture.transport.disconnects == 0)
        fixture.lifecycle.send(.willEnterForeground)
        #expect(await eventually { (try? fixture.transport.networkReturns) == 1 })
        #expect(try fixture.transport.reasons == [.initialization], "no new connect: the transport retries itself")
    }

    @Test("a client that never connected is not paused by the background, so the foreground connects nothing")
    func backgroundBeforeInitialize() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }

        fixture.lifecycle.send(.didEnterBackground)
        fixture.lifecycle.send(.willEnterForeground)
        // initialize is the next connect: had the foreground resumed, its connect would come first.
        await fixture.client.initialize()

        #expect(try fixture.transport.reasons == [.initialization])
        #expect(try fixture.transport.disconnects == 0)
    }

    // MARK: 10. Warnings at creation

    @Test("an http base URL warns 'not HTTPS' at creation")
    func plainHTTPWarns() throws {
        let fixture = try ClientFixture(connection: ConnectionOptions(baseURL: URL(string: "http://127.0.0.1:1")))
        defer { fixture.client.close() }
        #expect(fixture.logger.messages(at: .warn).count == 1)
        #expect(fixture.logger.messages(at: .warn).first?.contains("not HTTPS") == true)
    }

    @Test("the 'not HTTPS' warning names the base URL without its credentials")
    func plainHTTPWarningHidesCredentials() throws {
        let url = URL(string: "http://user:secret@127.0.0.1:1/api")
        let fixture = try ClientFixture(connection: ConnectionOptions(baseURL: url))
        defer { fixture.client.close() }
        let warning = try #require(fixture.logger.messages(at: .warn).first)
        #expect(warning.contains("http://***@127.0.0.1:1/api is not HTTPS"))
        #expect(!warning.contains("secret") && !warning.contains("user"))
    }

    @Test("a polling interval below 30 s warns once at creation, and not again on updateContext")
    func shortPollingIntervalWarnsOnce() async throws {
        let fixture = try ClientFixture(connection: ConnectionOptions(mode: .polling, pollingInterval: 5))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        await fixture.client.updateContext(ConfigDirectorContext(id: "user-2"))
        let warnings = fixture.logger.messages(at: .warn)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("pollingInterval") == true)
        #expect(warnings.first?.contains("below the minimum") == true)
        #expect(warnings.first?.contains("polling every 30.0 s") == true)
    }

    @Test(
        "a polling interval that is not a finite number warns once at creation that the default is used",
        arguments: [Double.nan, .infinity])
    func nonFinitePollingIntervalWarns(interval: Double) throws {
        let fixture = try ClientFixture(connection: ConnectionOptions(mode: .polling, pollingInterval: interval))
        defer { fixture.client.close() }
        let warnings = fixture.logger.messages(at: .warn)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("is not a finite number of seconds; polling every 60.0 s") == true)
    }

    @Test("a polling interval of 30 s or more, or one of streaming mode, warns of nothing", arguments: [30.0, 600])
    func usablePollingIntervalIsSilent(interval: Double) throws {
        let polling = try ClientFixture(connection: ConnectionOptions(mode: .polling, pollingInterval: interval))
        defer { polling.client.close() }
        let streaming = try ClientFixture(connection: ConnectionOptions(mode: .streaming, pollingInterval: .nan))
        defer { streaming.client.close() }
        #expect(polling.logger.messages(at: .warn).isEmpty)
        #expect(streaming.logger.messages(at: .warn).isEmpty)
    }

    // MARK: 11. Telemetry reports what the app got

    @Test("telemetry reports the value the app received, the default's text, and the server's value id only")
    func telemetryReportsWhatTheAppGot() async throws {
        let set = ConfigSet(
            kind: .full,
            configs: [
                "ratio": ConfigState(key: "ratio", type: .float, value: "2.5", valueID: "r1"),
                "flag": ConfigState(key: "flag", type: .boolean, value: "TRUE"),
                "name": ConfigState(key: "name", type: .string, value: "x"),
            ]
        )
        let fixture = try ClientFixture(initial: set)
        await fixture.client.initialize()
        _ = fixture.client.value(for: "ratio", default: 0)
        _ = fixture.client.value(for: "flag", default: false)
        _ = fixture.client.value(for: "name", default: 7)
        _ = fixture.client.value(for: "missing", default: "fallback")
        await fixture.client.closeAndWait()

        let events = Dictionary(
            uniqueKeysWithValues: fixture.telemetry.batches.flatMap(\.evaluatedConfigs).map { ($0.event.key, $0.event) }
        )
        #expect(events["ratio"]?.evaluatedValue == .text("2"))
        #expect(events["ratio"]?.evaluatedValueID == "r1")
        #expect(events["flag"]?.evaluatedValue == .text("true"))
        #expect(events["flag"]?.evaluatedValueID == nil)
        #expect(events["name"]?.reason == .invalidNumber)
        #expect(events["name"]?.evaluatedValue == .text("7"))
        #expect(events["missing"]?.evaluatedValue == .text("fallback"))
        #expect(events["missing"]?.evaluatedValueID == nil)
    }

    // MARK: The tail of close()

    @Test("close sends the last batch, and its tail ends by the deadline even when the sink never answers")
    func closeTailIsBounded() async throws {
        let sink = HangingTelemetrySink()
        let clock = ManualClock()
        let client = try ConfigDirectorClient(
            clientSDKKey: "test-key",
            options: ConfigDirectorClientOptions(
                logger: RecordingLogger(forbidding: RecordingLogger.sdkKeys), caching: CachingOptions(enabled: false)),
            environment: ClientEnvironment(
                transportFactory: ScriptedTransportFactory(answer: .deliver(.sample)),
                telemetry: .sink(sink),
                lifecycleObserver: ManualLifecycleObserver(),
                clock: clock
            )
        )
        await client.initialize()
        _ = client.value(for: "dark-mode", default: false)

        let closing = Task { await client.closeAndWait() }
        #expect(await eventually { sink.sendCount == 1 })
        clock.advance(by: 5)
        await closing.value

        #expect(sink.isClosed)
        #expect(sink.sendCount == 1)
    }

    // MARK: Kept values never delay the connection

    @Test("a caching provider that never answers delays neither the connection nor initialize, and is logged once")
    func slowStorage() async throws {
        let provider = StalledCachingProvider()
        let fixture = try ClientFixture(answer: .hold, caching: CachingOptions(provider: provider))
        defer {
            fixture.client.close()
            provider.release()
        }

        let initialization = Task { await fixture.client.initialize(context: ConfigDirectorContext(id: "u")) }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 1 })
        await fixture.advance(by: 3)
        await initialization.value

        // The provider is reported: slow at the deadline, or, when a loaded machine let the store's own timeout
        // (5 s of real time) pass before the manual clock reached the deadline, as a read that failed.
        func slowWarnings() -> Int {
            fixture.logger.messages(at: .warn).filter { $0.contains("caching provider") }.count
        }
        let failedReads = fixture.logger.messages(at: .warn).filter { $0.hasPrefix("Could not") }.count
        #expect(slowWarnings() == 1 || (slowWarnings() == 0 && failedReads == 1))
        let slowAtFirstDeadline = slowWarnings()
        try fixture.transport.answerNextConnect(.hold)
        let update = Task { await fixture.client.updateContext(ConfigDirectorContext(id: "v")) }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 2 })
        await fixture.advance(by: 3)
        await update.value
        // Never again at a later deadline.
        #expect(slowWarnings() == slowAtFirstDeadline)
    }
}

/// A telemetry sink whose sends never end until it is closed.
final class HangingTelemetrySink: TelemetrySink {
    private struct State {
        var sends = 0
        var closed = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Protected(State())

    func send(_ batch: TelemetryBatch) async -> Bool {
        await withCheckedContinuation { continuation in
            let isClosed = state.withLock { state in
                state.sends += 1
                if !state.closed { state.waiting.append(continuation) }
                return state.closed
            }
            if isClosed { continuation.resume() }
        }
        return true
    }

    func close() {
        let released = state.withLock { state in
            state.closed = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in released { continuation.resume() }
    }

    var sendCount: Int { state.withLock(\.sends) }
    var isClosed: Bool { state.withLock(\.closed) }
}

/// A caching provider whose reads block until released, as a stalled disk would.
final class StalledCachingProvider: CachingProvider, @unchecked Sendable {
    private let gate = DispatchSemaphore(value: 0)

    func read() throws -> String? {
        gate.wait()
        gate.signal()
        return nil
    }

    func write(_ entry: String) throws {}
    func remove() throws {}
    func sizeLimit() -> Int { 1024 * 1024 }

    func instanceIDProvider() -> any CachingProvider { InMemoryCachingProvider(sizeLimit: 1024) }

    /// Lets every read return.
    func release() { gate.signal() }
}
