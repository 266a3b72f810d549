@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Initializing and updating the context", .timeLimit(.minutes(1)))
struct ConnectionLifecycleTests {
    @Test("initialize publishes contextUpdated, then ready, then configsUpdated, before it returns")
    func initializeEventOrder() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        var events = fixture.client.events.makeAsyncIterator()
        let user = ConfigDirectorContext(id: "user-123")

        await fixture.client.initialize(context: user)

        #expect(await events.next() == .contextUpdated(user))
        #expect(await events.next() == .ready(.initialization))
        guard case .configsUpdated(let update) = await events.next() else {
            Issue.record("expected configsUpdated")
            return
        }
        #expect(update.keys == ConfigSet.sample.configs.keys.sorted().names)
        #expect(fixture.client.isReady)
        #expect(!fixture.client.isInitializing)
        #expect(fixture.client.context == user)
        #expect(try fixture.transport.contexts == [user])
    }

    @Test("a timed-out initialize returns, applies its context, warns, and keeps isInitializing")
    func initializeTimeout() async throws {
        let fixture = try ClientFixture(answer: .hold)
        defer { fixture.client.close() }
        let user = ConfigDirectorContext(id: "user-123")

        let initialization = Task { await fixture.client.initialize(context: user) }
        #expect(await eventually { fixture.clock.sleeperCount == 2 })
        #expect(fixture.client.isInitializing)
        fixture.clock.advance(by: 3)
        await initialization.value

        #expect(!fixture.client.isReady)
        #expect(fixture.client.isInitializing)
        #expect(fixture.client.context == user)
        #expect(fixture.logger.messages(at: .warn).contains { $0.contains("keeps retrying") })

        var events = fixture.client.events.makeAsyncIterator()
        try fixture.transport.deliver(.sample)
        #expect(await events.next() == .ready(.initialization))
        #expect(fixture.client.isReady)
        #expect(!fixture.client.isInitializing)
    }

    @Test("a fatal status ends initializing, logs one error, and keeps the client usable")
    func fatalStatus() async throws {
        let error = ConfigDirectorError.connectionFailed(message: "invalid SDK key", statusCode: 401)
        let fixture = try ClientFixture(answer: .fail(error))
        defer { fixture.client.close() }

        await fixture.client.initialize()

        #expect(!fixture.client.isReady)
        #expect(!fixture.client.isInitializing)
        #expect(fixture.logger.messages(at: .error).count == 1)
        #expect(fixture.client.value(for: "dark-mode", default: false) == false)
    }

    @Test(
        "a 204 during the first initialize returns it with its context applied and ends initializing: nothing retries")
    func stoppedWhileInitializing() async throws {
        let fixture = try ClientFixture(answer: .hold)
        defer { fixture.client.close() }
        let user = ConfigDirectorContext(id: "user-123")
        let initialization = Task { await fixture.client.initialize(context: user) }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 1 })
        #expect(fixture.client.isInitializing)

        try fixture.transport.report(.stopped)
        await initialization.value

        #expect(!fixture.client.isInitializing)
        #expect(!fixture.client.isReady)
        #expect(fixture.client.context == user)
        #expect(fixture.logger.messages(at: .info).filter { $0.contains("(204)") }.count == 1)
    }

    @Test("a 204 while live keeps the client ready on its values, logs once, and the next connect connects again")
    func stoppedWhileLive() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        let user = ConfigDirectorContext(id: "user-123")
        await fixture.client.initialize(context: user)
        #expect(fixture.client.isReady)

        try fixture.transport.report(.stopped)

        #expect(fixture.client.isReady)
        #expect(fixture.client.value(for: "dark-mode", default: false))
        #expect(fixture.logger.messages(at: .info).filter { $0.contains("(204)") }.count == 1)
        let next = ConfigDirectorContext(id: "user-456")
        await fixture.client.updateContext(next)
        #expect(try fixture.transport.contexts == [user, next])
        #expect(fixture.client.isReady)
        #expect(fixture.client.context == next)
    }

    @Test("during a context update the client is not ready, serves the prior values and keeps its context")
    func contextUpdate() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        let first = ConfigDirectorContext(id: "user-1")
        let second = ConfigDirectorContext(id: "acme", kind: "tenant")
        await fixture.client.initialize(context: first)
        try fixture.transport.answerNextConnect(.hold)

        let update = Task { await fixture.client.updateContext(second) }
        #expect(await eventually { fixture.clock.sleeperCount == 2 })
        #expect(!fixture.client.isReady)
        #expect(fixture.client.context == first)
        #expect(fixture.client.value(for: "greeting", default: "") == "hello")

        var events = fixture.client.events.makeAsyncIterator()
        try fixture.transport.deliver(.strings(["greeting": "bonjour"], kind: .full))
        await update.value
        #expect(await events.next() == .contextUpdated(second))
        #expect(await events.next() == .ready(.contextUpdate))
        #expect(fixture.client.isReady)
        #expect(fixture.client.context == second)
        #expect(fixture.client.value(for: "greeting", default: "") == "bonjour")
        #expect(fixture.client.value(for: "dark-mode", default: false) == false)
        #expect(!fixture.client.isInitializing)
    }

    @Test("operations run one at a time, in call order")
    func serialOperations() async throws {
        let fixture = try ClientFixture(answer: .hold)
        defer { fixture.client.close() }
        let initialization = Task { await fixture.client.initialize(context: ConfigDirectorContext(id: "first")) }
        #expect(await eventually { fixture.clock.sleeperCount == 2 })
        let update = Task { await fixture.client.updateContext(ConfigDirectorContext(id: "second")) }
        // The update has begun and waits for its turn: without it, it would have reached the transport.
        // Required: connects that overlap may leave the tasks awaited below waiting until the client closes.
        try #require(await eventually { fixture.client.connectsWaitingForTheirTurn == 1 })
        #expect(try fixture.transport.contexts.map { $0?.id } == ["first"])

        try fixture.transport.deliver(.sample)
        await initialization.value
        #expect(await eventually { (try? fixture.transport.contexts.count) == 2 })
        #expect(try fixture.transport.contexts.map { $0?.id } == ["first", "second"])
        try fixture.transport.deliver(.sample)
        await update.value
        #expect(fixture.client.context?.id == "second")
    }

    @Test("a context with an invalid kind is logged once and evaluated as no context")
    func invalidKind() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "x", kind: "Not Valid"))

        #expect(fixture.logger.messages(at: .error).count == 1)
        #expect(try fixture.transport.contexts == [nil])
        #expect(fixture.client.context == nil)
        #expect(fixture.client.isReady)
    }

    @Test("initialize marks the client initializing when it is called, while an earlier attempt still runs")
    func isInitializingFromTheCall() async throws {
        let error = ConfigDirectorError.connectionFailed(message: "invalid SDK key", statusCode: 401)
        let fixture = try ClientFixture(answer: .fail(error))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        #expect(!fixture.client.isInitializing)
        try fixture.transport.answerEveryConnect(.hold)

        let update = Task { await fixture.client.updateContext(ConfigDirectorContext(id: "user-2")) }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 2 })
        let initialization = Task { await fixture.client.initialize() }

        #expect(await eventually { fixture.client.isInitializing })
        #expect(try fixture.transport.contexts.count == 2)
        fixture.client.close()
        await update.value
        await initialization.value
    }

    @Test("updateContext and resumeNetwork never set isInitializing")
    func isInitializingOnlyForInitialize() async throws {
        let fixture = try ClientFixture(answer: .hold)
        defer { fixture.client.close() }
        let update = Task { await fixture.client.updateContext(ConfigDirectorContext(id: "a")) }
        #expect(await eventually { fixture.clock.sleeperCount == 2 })
        #expect(!fixture.client.isInitializing)
        fixture.clock.advance(by: 3)
        await update.value
        #expect(!fixture.client.isInitializing)
    }

    @Test("pause and resume keep state and reconnect with the last context")
    func pauseAndResume() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        let user = ConfigDirectorContext(id: "user-1")
        await fixture.client.initialize(context: user)
        var events = fixture.client.events.makeAsyncIterator()

        fixture.client.pauseNetwork()
        #expect(try fixture.transport.disconnects == 1)
        #expect(fixture.client.value(for: "greeting", default: "") == "hello")

        #expect(!fixture.client.isReady)
        #expect(fixture.client.value(for: "missing", default: "none") == "none")

        await fixture.client.resumeNetwork()
        #expect(try fixture.transport.contexts == [user, user])
        #expect(try fixture.transport.reasons == [.initialization, .networkResume])
        #expect(await events.next() == .contextUpdated(user))
        #expect(await events.next() == .ready(.networkResume))
        guard case .configsUpdated = await events.next() else {
            Issue.record("expected configsUpdated after ready")
            return
        }
        #expect(fixture.client.context == user)
        #expect(fixture.client.isReady)
    }
}
