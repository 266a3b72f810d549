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

/// The connection's health through the public API (`connectionHealth`, `connectionHealthUpdates`), driven by a
/// scripted transport that reports what the HTTP transports report, on a manual clock.
@Suite("The connection's health", .timeLimit(.minutes(1)))
struct ConnectionHealthTests {
    private static let unavailable = TransportFailure("status 503", statusCode: 503)
    private static let refusal = ConfigDirectorError.connectionFailed(message: "invalid SDK key", statusCode: 401)

    @Test("before initialize the health is idle, in the options' mode, with nothing received nor failed")
    func idle() throws {
        for mode in [ConnectionMode.streaming, .polling] {
            let fixture = try ClientFixture(answer: .hold, connection: ConnectionOptions(mode: mode))
            defer { fixture.client.close() }
            #expect(fixture.client.connectionHealth == ConnectionHealth(mode: mode, state: .idle))
        }
    }

    @Test("a connect is connecting until its set arrives, then connected with the time the values arrived")
    func connectingThenConnected() async throws {
        let fixture = try ClientFixture(answer: .hold)
        defer { fixture.client.close() }
        let initialization = Task { await fixture.client.initialize(context: ConfigDirectorContext(id: "u")) }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 1 })
        #expect(fixture.client.connectionHealth.state == .connecting)

        fixture.clock.advance(by: 1)
        try fixture.transport.deliver(.sample)
        await initialization.value

        let health = fixture.client.connectionHealth
        #expect(health.state == .connected)
        #expect(health.lastValuesReceived == fixture.clock.now())
        #expect(health.lastFailure == nil)
        #expect(health.nextAttempt == nil)
    }

    @Test("the stream yields the current health first, then each change, and an unchanged health not again")
    func streamOfChanges() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        var updates = fixture.client.connectionHealthUpdates.makeAsyncIterator()
        #expect(await updates.next()?.state == .idle)

        await fixture.client.initialize()
        #expect(await updates.next()?.state == .connecting)
        let connected = await updates.next()
        #expect(connected?.state == .connected)
        #expect(connected?.lastValuesReceived == fixture.clock.now())

        // The same set at the same time changes nothing; a set a second later moves lastValuesReceived.
        try fixture.transport.deliver(.sample)
        try fixture.transport.report(.open)
        fixture.clock.advance(by: 1)
        try fixture.transport.deliver(.sample)
        let later = await updates.next()
        #expect(later?.state == .connected)
        #expect(later?.lastValuesReceived == fixture.clock.now())
        #expect(fixture.client.connectionHealth == later)
    }

    @Test("a failed connection waits to retry until its next attempt, turns connecting then, and recovers")
    func backoffAndRecovery() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let firstValues = fixture.clock.now()
        fixture.clock.advance(by: 10)
        let failedAt = fixture.clock.now()

        try fixture.transport.report(.reconnecting(attempt: 1, delay: 2, failure: Self.unavailable))

        let waiting = fixture.client.connectionHealth
        let due = failedAt.addingTimeInterval(2)
        #expect(waiting.state == .waitingToRetry(until: due))
        #expect(waiting.nextAttempt == due)
        #expect(
            waiting.lastFailure == ConnectionHealth.Failure(date: failedAt, description: "status 503", statusCode: 503))
        #expect(waiting.lastValuesReceived == firstValues)
        #expect(fixture.client.isReady, "the health says nothing of the values, which are still served")

        // The retry's time comes on the client's clock: the attempt is under way.
        #expect(await eventually { fixture.clock.requestedDelays.contains(2) })
        fixture.clock.advance(by: 2)
        #expect(await eventually { fixture.client.connectionHealth.state == .connecting })
        #expect(fixture.client.connectionHealth.nextAttempt == nil)

        try fixture.transport.report(.open)
        #expect(fixture.client.connectionHealth.state == .connected)
        fixture.clock.advance(by: 1)
        try fixture.transport.deliver(.sample)
        let recovered = fixture.client.connectionHealth
        #expect(recovered.state == .connected)
        #expect(recovered.lastValuesReceived == fixture.clock.now())
        #expect(recovered.lastFailure?.date == failedAt, "the last failure is kept after recovery")
    }

    @Test("a later failure replaces the next attempt, and values that arrive while waiting recover at once")
    func retryOvertakenByValues() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        try fixture.transport.report(.reconnecting(attempt: 1, delay: 4, failure: Self.unavailable))
        fixture.clock.advance(by: 1)
        let lost = TransportFailure("the server closed the stream")
        try fixture.transport.report(.reconnecting(attempt: 2, delay: 8, failure: lost))
        let due = fixture.clock.now().addingTimeInterval(8)
        #expect(fixture.client.connectionHealth.state == .waitingToRetry(until: due))
        #expect(fixture.client.connectionHealth.nextAttempt == due)
        #expect(
            fixture.client.connectionHealth.lastFailure
                == ConnectionHealth.Failure(date: fixture.clock.now(), description: "the server closed the stream"))

        try fixture.transport.deliver(.sample)
        #expect(fixture.client.connectionHealth.state == .connected)
        #expect(fixture.client.connectionHealth.nextAttempt == nil)
        #expect(fixture.client.connectionHealth.lastValuesReceived == fixture.clock.now())
    }

    @Test("a refusal stops the health with its error, and its status is the last failure")
    func refusal() async throws {
        let fixture = try ClientFixture(answer: .fail(Self.refusal))
        defer { fixture.client.close() }
        var updates = fixture.client.connectionHealthUpdates.makeAsyncIterator()

        await fixture.client.initialize()

        #expect(await updates.next()?.state == .idle)
        #expect(await updates.next()?.state == .connecting)
        let stopped = await updates.next()
        #expect(stopped?.state == .stopped(refusal: Self.refusal))
        #expect(
            stopped?.lastFailure
                == ConnectionHealth.Failure(
                    date: fixture.clock.now(), description: "status 401: refused for good", statusCode: 401))
        #expect(stopped?.lastValuesReceived == nil)
        #expect(fixture.client.connectionHealth == stopped)
    }

    @Test("a refusal while live stops the health while the client stays ready on its values")
    func refusalWhileLive() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        try fixture.transport.report(.failed(Self.refusal))
        #expect(fixture.client.connectionHealth.state == .stopped(refusal: Self.refusal))
        #expect(fixture.client.connectionHealth.lastFailure?.statusCode == 401)
        #expect(fixture.client.isReady)

        await fixture.client.updateContext(ConfigDirectorContext(id: "next"))
        #expect(fixture.client.connectionHealth.state == .connected)
        #expect(fixture.client.connectionHealth.lastFailure?.statusCode == 401)
    }

    @Test("the service's 204 stops the health without a refusal, and is no failure")
    func stoppedBy204() async throws {
        let fixture = try ClientFixture(answer: .hold)
        defer { fixture.client.close() }
        let initialization = Task { await fixture.client.initialize() }
        #expect(await eventually { (try? fixture.transport.contexts.count) == 1 })
        try fixture.transport.report(.stopped)
        await initialization.value
        #expect(fixture.client.connectionHealth.state == .stopped(refusal: nil))
        #expect(fixture.client.connectionHealth.lastFailure == nil)
    }

    @Test("pauseNetwork and the background pause the health; news of the released connection changes nothing")
    func paused() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()

        fixture.client.pauseNetwork()
        #expect(fixture.client.connectionHealth.state == .paused)
        try fixture.transport.report(.reconnecting(attempt: 1, delay: 2, failure: Self.unavailable))
        try fixture.transport.report(.failed(Self.refusal))
        #expect(
            fixture.client.connectionHealth
                == ConnectionHealth(
                    mode: .streaming, state: .paused, lastValuesReceived: fixture.clock.now()))

        await fixture.client.resumeNetwork()
        #expect(fixture.client.connectionHealth.state == .connected)

        var updates = fixture.client.connectionHealthUpdates.makeAsyncIterator()
        #expect(await updates.next()?.state == .connected)
        fixture.lifecycle.send(.didEnterBackground)
        #expect(await updates.next()?.state == .paused)
        fixture.lifecycle.send(.willEnterForeground)
        #expect(await updates.next()?.state == .connecting)
        #expect(await updates.next()?.state == .connected)
    }

    @Test("close: the health is closed, every stream yields it and finishes, and a stream made after yields it alone")
    func closed() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        await fixture.client.initialize()
        let updates = fixture.client.connectionHealthUpdates
        try fixture.transport.report(.reconnecting(attempt: 1, delay: 2, failure: Self.unavailable))

        fixture.client.close()

        #expect(fixture.client.connectionHealth.state == .closed)
        let due = fixture.clock.now().addingTimeInterval(2)
        #expect(await states(until: updates) == [.connected, .waitingToRetry(until: due), .closed])
        #expect(await states(until: fixture.client.connectionHealthUpdates) == [.closed])
    }

    @Test("values kept on the device are not values received")
    func keptValuesAreNotReceived() async throws {
        let provider = InMemoryCachingProvider()
        #expect(try await keepSampleValues(in: provider, for: ConfigDirectorContext(id: "user-1")))
        let second = try ClientFixture(answer: .hold, caching: CachingOptions(provider: provider))
        defer { second.client.close() }
        let initialization = Task { await second.client.initialize(context: ConfigDirectorContext(id: "user-1")) }
        #expect(await eventually { second.clock.sleeperCount == 2 })
        await second.client.keptValuesLoaded()
        #expect(second.client.valueSource == .keptValues)
        #expect(second.client.connectionHealth.state == .connecting)
        #expect(second.client.connectionHealth.lastValuesReceived == nil)
        second.client.close()
        await initialization.value
    }

    @Test("offline mode stays idle, says when its values were applied, and closes")
    func offline() async throws {
        let clock = ManualClock()
        let client = try ConfigDirectorClient(
            clientSDKKey: "",
            options: ConfigDirectorClientOptions(connection: ConnectionOptions(mode: .offline), values: ["a": true]),
            environment: ClientEnvironment(telemetry: .disabled, clock: clock)
        )
        #expect(client.connectionHealth == ConnectionHealth(mode: .offline, state: .idle))
        await client.initialize()
        #expect(
            client.connectionHealth == ConnectionHealth(mode: .offline, state: .idle, lastValuesReceived: clock.now()))
        client.pauseNetwork()
        #expect(client.connectionHealth.state == .idle)
        client.close()
        #expect(client.connectionHealth.state == .closed)
    }

    /// The states a health stream yields until it finishes.
    private func states(until stream: AsyncStream<ConnectionHealth>) async -> [ConnectionHealth.State] {
        var states: [ConnectionHealth.State] = []
        for await health in stream { states.append(health.state) }
        return states
    }
}
