@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigTesting
import ModelTestSupport
import TestSupport
import Testing

@Suite("What to expect from a test client", .timeLimit(.minutes(1)))
struct WhatToExpectTests {
    @Test("initialize publishes contextUpdated, then ready, then configsUpdated, all before it returns")
    func initializeEventOrder() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello", "max-items": 20])
            defer { testClient.client.close() }
            let events = testClient.client.events
            let user = ConfigDirectorContext(id: "user-123")

            await testClient.client.initialize(context: user)
            testClient.client.close()

            #expect(
                await elements(of: events) == [
                    .contextUpdated(user),
                    .ready(.initialization),
                    .configsUpdated(ConfigsUpdate(keys: ["greeting", "max-items"])),
                ]
            )
        }
    }

    @Test("a held initialize that times out: not ready, context applied, the warning logged, still initializing")
    func heldInitializeTimesOut() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 0.2, logger: logger)
        defer { testClient.client.close() }
        let user = ConfigDirectorContext(id: "user-123")
        testClient.holdInitialization()

        let initialization = Pending { await testClient.client.initialize(context: user) }
        #expect(await initialization.value() != nil)

        #expect(!testClient.client.isReady)
        #expect(testClient.client.isInitializing)
        #expect(testClient.client.context == user)
        #expect(logger.lines(at: .warn).contains { $0.contains("keeps retrying in the background") })
        testClient.setValue("hi", for: "greeting")
        #expect(!testClient.client.isReady)

        await testClient.client.updateContext(user)
        #expect(testClient.client.isReady)
        #expect(!testClient.client.isInitializing)
        #expect(testClient.client.value(for: "greeting", default: "none") == "hi")
    }

    @Test("a held updateContext that times out: not ready, context applied, the warning logged")
    func heldContextUpdateTimesOut() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 0.2, logger: logger)
        defer { testClient.client.close() }
        await testClient.client.initialize()
        let user = ConfigDirectorContext(id: "user-2")
        testClient.holdContextUpdate()

        let update = Pending { await testClient.client.updateContext(user) }
        #expect(await update.value() != nil)

        #expect(!testClient.client.isReady)
        #expect(testClient.client.context == user)
        #expect(logger.lines(at: .warn).contains { $0.contains("keeps retrying in the background") })
        testClient.completeContextUpdate()
        #expect(!testClient.client.isReady)
    }

    @Test("a held initialize interrupted by pauseNetwork: not ready, context applied, the warning logged")
    func heldInitializeInterruptedByPause() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: logger)
        defer { testClient.client.close() }
        let user = ConfigDirectorContext(id: "user-123")
        testClient.holdInitialization()
        let initialization = Pending { await testClient.client.initialize(context: user) }
        #expect(await eventually { testClient.contextUpdates.count == 1 })

        testClient.client.pauseNetwork()

        #expect(await initialization.value() != nil)
        #expect(!testClient.client.isReady)
        #expect(testClient.client.isInitializing)
        #expect(testClient.client.context == user)
        #expect(logger.lines(at: .warn).contains { $0.contains("keeps retrying in the background") })

        await testClient.client.resumeNetwork()
        #expect(testClient.client.isReady)
        #expect(testClient.contextUpdates == [user])
    }

    @Test("a held initialize ended by close returns, applies its context and logs the timeout warning too")
    func heldInitializeEndedByClose() async {
        let logger = RecordingLogger()
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: logger)
        defer { testClient.client.close() }
        let user = ConfigDirectorContext(id: "user-123")
        let events = testClient.client.events
        testClient.holdInitialization()
        let initialization = Pending { await testClient.client.initialize(context: user) }
        #expect(await eventually { testClient.contextUpdates.count == 1 })

        testClient.client.close()

        #expect(await initialization.value() != nil)
        #expect(!testClient.client.isReady)
        #expect(testClient.client.context == user)
        #expect(logger.lines(at: .warn).contains { $0.contains("keeps retrying in the background") })
        // The stream ends with close, after the context it applied.
        var published: [ClientEvent] = []
        for await event in events { published.append(event) }
        #expect(published == [.contextUpdated(user)])
    }

    @Test("an attempt started while another is held waits for it to be completed")
    func attemptsRunOneAtATime() async {
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30)
        defer { testClient.client.close() }
        let user = ConfigDirectorContext(id: "user-2")
        testClient.holdInitialization()
        let initialization = Pending { await testClient.client.initialize() }
        #expect(await eventually { testClient.contextUpdates.count == 1 })

        let update = Pending { await testClient.client.updateContext(user) }
        // The update has begun and waits for its turn: without it, it would have reached the server.
        #expect(await eventually { testClient.client.connectsWaitingForTheirTurn == 1 })
        #expect(testClient.contextUpdates.count == 1)
        #expect(!update.isFinished)

        testClient.completeInitialization()

        #expect(await initialization.value() != nil)
        #expect(await update.value() != nil)
        #expect(testClient.contextUpdates == [ConfigDirectorContext(), user])
        #expect(testClient.client.context == user)
    }

    @Test("an attempt started while another is held waits for it to fail or end")
    func attemptsWaitForFailureOrEnd() async {
        let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: RecordingLogger())
        defer { testClient.client.close() }
        testClient.holdInitialization()
        let initialization = Pending { await testClient.client.initialize() }
        #expect(await eventually { testClient.contextUpdates.count == 1 })
        let retry = Pending { await testClient.client.initialize() }
        #expect(await eventually { testClient.client.connectsWaitingForTheirTurn == 1 })
        #expect(!retry.isFinished)

        testClient.failInitialization()

        #expect(await initialization.value() != nil)
        #expect(await retry.value() != nil)
        #expect(testClient.client.isReady)
        #expect(testClient.contextUpdates.count == 2)
    }

    @Test("setting the value already served yields nothing on values streams, while events carry configsUpdated")
    func streamsYieldOnlyOnChange() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello"])
            defer { testClient.client.close() }
            await testClient.client.initialize()
            let greetings = testClient.client.values(for: "greeting", default: "none")
            let events = testClient.client.events

            testClient.setValue("hello", for: "greeting")
            testClient.setValue("hi", for: "greeting")
            testClient.client.close()

            #expect(await elements(of: greetings) == ["hi"])
            #expect(
                await elements(of: events) == [
                    .configsUpdated(ConfigsUpdate(keys: ["greeting"])),
                    .configsUpdated(ConfigsUpdate(keys: ["greeting"])),
                ]
            )
        }
    }

    @Test("values set while the network is paused are delivered on resume")
    func valuesSetWhilePausedArriveOnResume() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello", "max-items": 20])
            defer { testClient.client.close() }
            await testClient.client.initialize()
            testClient.client.pauseNetwork()

            testClient.setValue("hi", for: "greeting")
            testClient.removeValue(for: "max-items")
            #expect(testClient.client.value(for: "greeting", default: "none") == "hello")
            #expect(testClient.client.value(for: "max-items", default: 0) == 20)
            let events = testClient.client.events

            await testClient.client.resumeNetwork()

            #expect(testClient.client.value(for: "greeting", default: "none") == "hi")
            #expect(testClient.client.value(for: "max-items", default: 0) == 0)
            testClient.client.close()
            #expect(
                await elements(of: events) == [
                    .contextUpdated(nil),
                    .ready(.networkResume),
                    .configsUpdated(ConfigsUpdate(keys: ["greeting"], removedKeys: ["max-items"])),
                ]
            )
        }
    }

    @Test("after close the controls are silent no-ops and every stream finishes")
    func controlsAfterClose() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello"])
            await testClient.client.initialize()
            let greetings = testClient.client.values(for: "greeting", default: "none")
            let events = testClient.client.events
            let evaluations = testClient.client.evaluations

            testClient.client.close()
            testClient.setValue("hi", for: "greeting")
            testClient.removeValue(for: "greeting")
            testClient.replaceValues(["other": 1])
            testClient.holdInitialization()
            testClient.completeInitialization()
            testClient.failInitialization()
            testClient.holdContextUpdate()
            testClient.completeContextUpdate()
            testClient.failContextUpdate()
            await testClient.client.initialize(context: ConfigDirectorContext(id: "user-2"))
            await testClient.client.updateContext(ConfigDirectorContext(id: "user-3"))

            #expect(testClient.contextUpdates == [ConfigDirectorContext()])
            #expect(await elements(of: greetings) == ["hello"])
            #expect(await elements(of: events).isEmpty)
            #expect(await elements(of: evaluations).isEmpty)
            #expect(await elements(of: testClient.client.values(for: "greeting", default: "none")).isEmpty)
        }
    }
}
