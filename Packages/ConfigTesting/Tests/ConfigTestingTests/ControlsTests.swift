@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigTesting
import ModelTestSupport
import TestSupport
import Testing

@Suite("Test client controls", .timeLimit(.minutes(1)))
struct ControlsTests {
    @Test("makeTestClient starts uninitialized; initialize completes at once with the client ready")
    func startsUninitialized() async {
        let testClient = makeTestClient(values: ["max-items": 20])
        defer { testClient.client.close() }
        #expect(!testClient.client.isReady)
        #expect(!testClient.client.isInitializing)
        #expect(testClient.client.value(for: "max-items", default: 0) == 0)

        await testClient.client.initialize()

        #expect(testClient.client.isReady)
        #expect(testClient.client.value(for: "max-items", default: 0) == 20)
    }

    @Test("setValue delivers an update carrying only that key, seen by reads when it returns")
    func setValueDeliversOneKey() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello", "max-items": 20])
            defer { testClient.client.close() }
            await testClient.client.initialize()
            var events = testClient.client.events.makeAsyncIterator()
            var items = testClient.client.values(for: "max-items", default: 0).makeAsyncIterator()
            #expect(await items.next() == 20)

            testClient.setValue(30, for: "max-items")

            #expect(testClient.client.value(for: "max-items", default: 0) == 30)
            #expect(testClient.client.value(for: "greeting", default: "none") == "hello")
            #expect(await events.next() == .configsUpdated(ConfigsUpdate(keys: ["max-items"])))
            #expect(await items.next() == 30)
        }
    }

    @Test("setValue before initialize stores the value, which initialize delivers")
    func setValueBeforeInitialize() async {
        let testClient = makeTestClient(values: ["greeting": "hello"])
        defer { testClient.client.close() }

        testClient.setValue("hi", for: "greeting")
        #expect(testClient.client.value(for: "greeting", default: "none") == "none")

        await testClient.client.initialize()
        #expect(testClient.client.value(for: "greeting", default: "none") == "hi")
    }

    @Test("removeValue delivers a full update without the key: configStateMissing, the default, removedKeys")
    func removeValue() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello", "max-items": 20])
            defer { testClient.client.close() }
            await testClient.client.initialize()
            var events = testClient.client.events.makeAsyncIterator()
            var greetings = testClient.client.values(for: "greeting", default: "none").makeAsyncIterator()
            #expect(await greetings.next() == "hello")
            var evaluations = testClient.client.evaluations.makeAsyncIterator()

            testClient.removeValue(for: "greeting")

            let update = ConfigsUpdate(keys: ["max-items"], removedKeys: ["greeting"])
            #expect(await events.next() == .configsUpdated(update))
            #expect(await greetings.next() == "none")
            let streamed = try #require(await evaluations.next())
            #expect(streamed.reason == .configStateMissing)
            #expect(testClient.client.value(for: "greeting", default: "none") == "none")
            let read = try #require(await evaluations.next())
            #expect(read.key == "greeting")
            #expect(read.reason == .configStateMissing)
            #expect(read.isDefaultValue)
            #expect(testClient.client.value(for: "max-items", default: 0) == 20)
        }
    }

    @Test("replaceValues replaces every value with a full update")
    func replaceValues() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello", "max-items": 20])
            defer { testClient.client.close() }
            await testClient.client.initialize()
            var events = testClient.client.events.makeAsyncIterator()

            testClient.replaceValues(["greeting": "hi", "dark-mode": true])

            #expect(
                await events.next()
                    == .configsUpdated(ConfigsUpdate(keys: ["dark-mode", "greeting"], removedKeys: ["max-items"]))
            )
            #expect(testClient.client.value(for: "greeting", default: "none") == "hi")
            #expect(testClient.client.value(for: "dark-mode", default: false))
            #expect(testClient.client.value(for: "max-items", default: 0) == 0)
        }
    }

    @Test("replaceValues disarms an armed hold and an armed failure")
    func replaceValuesDisarms() async {
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30)
        defer { testClient.client.close() }
        testClient.holdInitialization()
        testClient.failContextUpdate()

        testClient.replaceValues(["greeting": "hi"])

        let initialization = Pending { await testClient.client.initialize() }
        #expect(await initialization.value() != nil)
        #expect(testClient.client.isReady)
        #expect(testClient.client.value(for: "greeting", default: "none") == "hi")
        let update = Pending { await testClient.client.updateContext(ConfigDirectorContext(id: "user-2")) }
        #expect(await update.value() != nil)
        #expect(testClient.client.isReady)
        #expect(testClient.client.context == ConfigDirectorContext(id: "user-2"))
    }

    @Test("holdInitialization holds the next initialize until the client's timeout elapses")
    func holdIsBoundedByTheTimeout() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 0.2, logger: logger)
        defer { testClient.client.close() }
        testClient.holdInitialization()

        let initialization = Pending { await testClient.client.initialize() }
        #expect(await initialization.value() != nil)

        #expect(!testClient.client.isReady)
        #expect(testClient.client.value(for: "greeting", default: "none") == "none")
        #expect(logger.lines(at: .warn).contains { $0.contains("keeps retrying in the background") })
    }

    @Test("completeInitialization delivers the values stored meanwhile, and the client is ready on return")
    func completeInitialization() async {
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30)
        defer { testClient.client.close() }
        testClient.holdInitialization()
        let initialization = Pending { await testClient.client.initialize() }
        #expect(await eventually { testClient.contextUpdates.count == 1 })
        testClient.setValue("hi", for: "greeting")
        #expect(!initialization.isFinished)
        #expect(!testClient.client.isReady)

        testClient.completeInitialization()

        #expect(await initialization.value() != nil)
        #expect(testClient.client.isReady)
        #expect(!testClient.client.isInitializing)
        #expect(testClient.client.value(for: "greeting", default: "none") == "hi")
    }

    @Test("completeInitialization while a hold is armed but not picked up disarms it")
    func completeDisarms() async {
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30)
        defer { testClient.client.close() }
        testClient.holdInitialization()
        testClient.completeInitialization()

        let initialization = Pending { await testClient.client.initialize() }

        #expect(await initialization.value() != nil)
        #expect(testClient.client.isReady)
    }

    @Test("failInitialization fails the held initialize promptly: not ready, an error logged")
    func failHeldInitialization() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: logger)
        defer { testClient.client.close() }
        testClient.holdInitialization()
        let initialization = Pending { await testClient.client.initialize() }
        #expect(await eventually { testClient.contextUpdates.count == 1 })

        testClient.failInitialization()

        #expect(await initialization.value() != nil)
        #expect(!testClient.client.isReady)
        #expect(!testClient.client.isInitializing)
        #expect(testClient.client.value(for: "greeting", default: "none") == "none")
        let errors = logger.lines(at: .error)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("HTTP 401") == true)
    }

    @Test("failInitialization with nothing held arms the next initialize; the attempt after it succeeds")
    func failArmsTheNextInitialize() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: logger)
        defer { testClient.client.close() }
        testClient.failInitialization()

        await testClient.client.initialize()
        #expect(!testClient.client.isReady)
        #expect(!testClient.client.isInitializing)
        #expect(logger.lines(at: .error).count == 1)

        testClient.setValue("hi", for: "greeting")
        #expect(testClient.client.value(for: "greeting", default: "none") == "none")
        await testClient.client.initialize()
        #expect(testClient.client.isReady)
        #expect(testClient.client.value(for: "greeting", default: "none") == "hi")
    }

    @Test("holdContextUpdate holds the next updateContext only, until completeContextUpdate")
    func holdAndCompleteContextUpdate() async {
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30)
        defer { testClient.client.close() }
        let first = ConfigDirectorContext(id: "user-1")
        let second = ConfigDirectorContext(id: "user-2")
        testClient.holdContextUpdate()
        await testClient.client.initialize(context: first)
        #expect(testClient.client.isReady)

        let update = Pending { await testClient.client.updateContext(second) }
        #expect(await eventually { testClient.contextUpdates.count == 2 })
        testClient.setValue("hi", for: "greeting")
        #expect(!update.isFinished)
        #expect(!testClient.client.isReady)
        #expect(testClient.client.context == first)
        #expect(testClient.client.value(for: "greeting", default: "none") == "hello")

        testClient.completeContextUpdate()

        #expect(await update.value() != nil)
        #expect(testClient.client.isReady)
        #expect(testClient.client.context == second)
        #expect(testClient.client.value(for: "greeting", default: "none") == "hi")
    }

    @Test("completeContextUpdate while a hold is armed but not picked up disarms it")
    func completeContextUpdateDisarms() async {
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30)
        defer { testClient.client.close() }
        await testClient.client.initialize()
        testClient.holdContextUpdate()
        testClient.completeContextUpdate()

        let update = Pending { await testClient.client.updateContext(ConfigDirectorContext(id: "user-2")) }

        #expect(await update.value() != nil)
        #expect(testClient.client.isReady)
    }

    @Test("failContextUpdate fails the held updateContext; with nothing held it arms the next one")
    func failContextUpdate() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: logger)
        defer { testClient.client.close() }
        await testClient.client.initialize()
        testClient.holdContextUpdate()
        let held = Pending { await testClient.client.updateContext(ConfigDirectorContext(id: "user-2")) }
        #expect(await eventually { testClient.contextUpdates.count == 2 })

        testClient.failContextUpdate()

        #expect(await held.value() != nil)
        #expect(!testClient.client.isReady)
        #expect(logger.lines(at: .error).count == 1)

        testClient.failContextUpdate()
        await testClient.client.updateContext(ConfigDirectorContext(id: "user-3"))
        #expect(!testClient.client.isReady)
        #expect(logger.lines(at: .error).count == 2)

        testClient.setValue("hi", for: "greeting")
        await testClient.client.updateContext(ConfigDirectorContext(id: "user-4"))
        #expect(testClient.client.isReady)
        #expect(testClient.client.value(for: "greeting", default: "none") == "hi")
    }

    @Test("the initialization controls act only on initialize, the context update controls only on updateContext")
    func controlsActOnTheirOwnCall() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: logger)
        defer { testClient.client.close() }
        testClient.failContextUpdate()
        await testClient.client.initialize()
        #expect(testClient.client.isReady)

        testClient.failInitialization()
        await testClient.client.updateContext(ConfigDirectorContext(id: "user-2"))
        #expect(!testClient.client.isReady)

        await testClient.client.initialize()
        #expect(!testClient.client.isReady)
        #expect(logger.lines(at: .error).count == 2)
    }

    @Test("resumeNetwork is never held or failed, and the arming waits for its own call")
    func resumeIsNeverHeldOrFailed() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: logger)
        defer { testClient.client.close() }
        await testClient.client.initialize()
        testClient.holdInitialization()
        testClient.failContextUpdate()
        testClient.client.pauseNetwork()

        let resume = Pending { await testClient.client.resumeNetwork() }

        #expect(await resume.value() != nil)
        #expect(testClient.client.isReady)
        await testClient.client.updateContext(ConfigDirectorContext(id: "user-2"))
        #expect(!testClient.client.isReady)
        #expect(logger.lines(at: .error).count == 1)
    }

    @Test("contextUpdates records every initialize and updateContext, an empty context for none, no resume")
    func contextUpdates() async {
        let testClient = makeTestClient(values: ["greeting": "hello"])
        defer { testClient.client.close() }
        let user = ConfigDirectorContext(id: "user-2", name: "Ada", traits: ["plan": "pro"])

        await testClient.client.initialize()
        await testClient.client.updateContext(user)
        testClient.client.pauseNetwork()
        await testClient.client.resumeNetwork()
        await testClient.client.updateContext(nil)

        #expect(testClient.contextUpdates == [ConfigDirectorContext(), user, ConfigDirectorContext()])
    }
}
