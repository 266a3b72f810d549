@_spi(Internal) @_spi(Testing) import ConfigClient
import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import ModelTestSupport
import TestSupport
import Testing

/// The connection's health through the public API (`connectionHealth`, `connectionHealthUpdates`) of a client over
/// HTTP against the emulator and its faults, in both connection modes (issue 42, part 3).
@Suite("The connection's health against the emulator", .timeLimit(.minutes(3)))
struct ConnectionHealthEndToEndTests {
    private static let modes: [ConnectionMode] = [.streaming, .polling]

    private static func path(of mode: ConnectionMode) -> String {
        mode == .polling ? "/client/polling/v1" : "/client/sse/v1"
    }

    @Test("a refused SDK key stops the health with the refusal, and its status is the last failure", arguments: modes)
    func refusal(mode: ConnectionMode) async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let e2e = try EndToEndClient(mode: mode, baseURL: emulator.baseURL, sdkKey: "not-the-key")
            defer { e2e.client.close() }
            let before = Date()

            await e2e.client.initialize(context: proUser)

            let health = e2e.client.connectionHealth
            #expect(health.mode == mode)
            guard case .stopped(.connectionFailed(_, statusCode: 401)?) = health.state else {
                Issue.record("expected stopped by a 401, got \(health.state)")
                return
            }
            let failure = try #require(health.lastFailure)
            #expect(failure.statusCode == 401)
            #expect(failure.description == "status 401: refused for good")
            #expect(failure.date >= before)
            #expect(health.lastValuesReceived == nil)
            #expect(health.nextAttempt == nil)
            #expect(!failure.description.contains("not-the-key"))
        }
    }

    @Test(
        "a 503 waits to retry until its next attempt, with the failure, then recovers to connected with values",
        arguments: modes)
    func unavailableThenRecovered(mode: ConnectionMode) async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let e2e = try EndToEndClient(mode: mode, baseURL: emulator.baseURL)
            defer { e2e.client.close() }
            let updates = StreamCollector(e2e.client.connectionHealthUpdates)
            defer { updates.cancel() }
            emulator.inject(.status(503, path: Self.path(of: mode), count: 1))

            await e2e.client.initialize(context: proUser)

            #expect(e2e.client.isReady)
            #expect(await updates.wait { $0.last?.state == .connected && $0.last?.lastValuesReceived != nil })
            let seen = updates.all
            #expect(seen.first?.state == .idle)
            let waiting = try #require(seen.first { if case .waitingToRetry = $0.state { true } else { false } })
            let failure = try #require(waiting.lastFailure)
            #expect(failure.description == "status 503")
            #expect(failure.statusCode == 503)
            let nextAttempt = try #require(waiting.nextAttempt)
            #expect(waiting.state == .waitingToRetry(until: nextAttempt))
            // Streaming's first backoff is 1–2 s; polling waits its interval, 30 s (the clock runs faster).
            let wait = nextAttempt.timeIntervalSince(failure.date)
            #expect(mode == .polling ? abs(wait - 30) < 0.001 : (1...2).contains(wait), "waits \(wait) s")
            #expect(waiting.lastValuesReceived == nil)

            let recovered = e2e.client.connectionHealth
            #expect(recovered.state == .connected)
            #expect(recovered.nextAttempt == nil)
            #expect(try #require(recovered.lastValuesReceived) > failure.date)
            #expect(recovered.lastFailure == failure, "the last failure is kept after recovery")
        }
    }

    @Test("dropped streams wait to retry, then the stream is connected again with the values missed meanwhile")
    func droppedStreams() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let e2e = try EndToEndClient(mode: .streaming, baseURL: emulator.baseURL)
            defer { e2e.client.close() }
            await e2e.client.initialize(context: proUser)
            let connected = e2e.client.connectionHealth
            #expect(connected.state == .connected)
            let firstValues = try #require(connected.lastValuesReceived)
            let updates = StreamCollector(e2e.client.connectionHealthUpdates)
            defer { updates.cancel() }
            #expect(await updates.wait { $0 == [connected] })

            emulator.inject(.dropStreams)
            emulator.setValue(25, forKey: "max-items")

            #expect(await updates.wait { ($0.last?.lastValuesReceived ?? firstValues) > firstValues })
            #expect(await eventually(timeout: longestWait) { e2e.client.value(for: "max-items", default: 0) == 25 })
            let seen = updates.all
            let waiting = try #require(seen.first { if case .waitingToRetry = $0.state { true } else { false } })
            let failure = try #require(waiting.lastFailure)
            #expect(failure.statusCode == nil, "a dropped stream has no status: \(failure.description)")
            #expect(failure.date >= firstValues)
            let nextAttempt = try #require(waiting.nextAttempt)
            #expect((1...2).contains(nextAttempt.timeIntervalSince(failure.date)))
            #expect(waiting.lastValuesReceived == firstValues, "the values stay while it waits")
            #expect(e2e.client.isReady)

            let recovered = e2e.client.connectionHealth
            #expect(recovered.state == .connected)
            #expect(try #require(recovered.lastValuesReceived) > failure.date)
            #expect(recovered.lastFailure == failure)
        }
    }

    @Test("a stalled poll times out: it waits to retry with the timeout as its failure, then polls again")
    func stalledPoll() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            // A connection timeout of 0.5 s of real time (50 s of the client's): the poll's request timeout too.
            let e2e = try EndToEndClient(mode: .polling, baseURL: emulator.baseURL, timeout: 0.5)
            defer { e2e.client.close() }
            let updates = StreamCollector(e2e.client.connectionHealthUpdates)
            defer { updates.cancel() }
            emulator.inject(.stall(seconds: 3, path: Self.path(of: .polling)))

            await e2e.client.initialize(context: proUser)

            #expect(await updates.wait { $0.last?.state == .connected })
            let waiting = try #require(
                updates.all.first { if case .waitingToRetry = $0.state { true } else { false } })
            #expect(waiting.lastFailure?.description == "no response within 50.0 s")
            #expect(waiting.lastFailure?.statusCode == nil)
            #expect(e2e.client.connectionHealth.lastValuesReceived != nil)
        }
    }

    @Test("pauseNetwork pauses the health, resumeNetwork connects again, close closes it and ends the stream")
    func pauseResumeAndClose() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let e2e = try EndToEndClient(mode: .streaming, baseURL: emulator.baseURL)
            defer { e2e.client.close() }
            await e2e.client.initialize(context: proUser)
            let updates = StreamCollector(e2e.client.connectionHealthUpdates)
            defer { updates.cancel() }

            e2e.client.pauseNetwork()
            #expect(e2e.client.connectionHealth.state == .paused)
            #expect(await eventually(timeout: longestWait) { emulator.openStreams().isEmpty })
            await e2e.client.resumeNetwork()
            #expect(e2e.client.connectionHealth.state == .connected)
            e2e.client.close()

            #expect(await updates.wait { $0.last?.state == .closed })
            // Connected twice in a row when the stream opened and then its values arrived.
            let states = updates.all.map(\.state).reduce(into: [ConnectionHealth.State]()) { states, state in
                if states.last != state { states.append(state) }
            }
            #expect(states == [.connected, .paused, .connecting, .connected, .closed])
            // The stream finished: a stream made now yields the closed health alone.
            var afterClose: [ConnectionHealth.State] = []
            for await health in e2e.client.connectionHealthUpdates { afterClose.append(health.state) }
            #expect(afterClose == [.closed])
        }
    }
}
