@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("A stream in backoff and the network path", .timeLimit(.minutes(1)))
struct NetworkReturnTests {
    let clock = ManualClock()
    let http = FakeHTTPClient()
    let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
    let recorder = TransportEventRecorder()
    let monitor = ManualNetworkPathMonitor()

    private func makeTransport(random: Double = 0.5) -> any Transport {
        var configuration = Fixtures.configuration(clock: clock, logger: logger, random: { random })
        let monitor = monitor
        configuration.makeNetworkPathMonitor = { monitor }
        return Fixtures.makeTransport(.streaming, configuration: configuration, http: http, recorder: recorder)
    }

    /// Fails `count` connections, letting each backoff pass, and waits for the last one's backoff.
    private func failConnections(_ count: Int) async throws {
        for number in 1...count {
            #expect(await eventually { recorder.reconnects.count == number && clock.sleeperCount == 1 })
            if number < count {
                clock.advance(by: try #require(recorder.reconnects.last).delay)
            }
        }
    }

    @Test("the network returning after an outage ends a long backoff within a jitter of 4 s, and resets it")
    func networkReturns() async throws {
        for _ in 1...9 { http.enqueue(.networkError()) }
        http.enqueue(.networkError(), .hangingOpen)
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        try await failConnections(9)
        #expect(recorder.reconnects.last?.delay == 384, "attempt 9 waits 256-512 s")
        monitor.report(satisfied: false)
        monitor.report(satisfied: true)
        // The jitter (half of its 4 s, with a random fraction of 0.5) is the only wait left.
        #expect(await eventually { clock.sleeperCount == 1 && clock.requestedDelays.last == 2 })
        clock.advance(by: 2)
        #expect(await eventually { recorder.reconnects.count == 10 })
        #expect(recorder.reconnects.last?.attempt == 1, "the backoff started over")
        #expect(http.requestCount == 10)
    }

    @Test("while the path is unsatisfied no attempt is spent, whatever time passes; it connects when the path returns")
    func noAttemptWithoutNetwork() async throws {
        http.enqueue(.networkError(), .hangingOpen)
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        try await failConnections(1)
        monitor.report(satisfied: false)
        clock.advance(by: 10_000)
        // The backoff's sleep is over and nothing else sleeps: the retry waits for the network, not on the clock.
        #expect(await eventually { clock.sleeperCount == 0 })
        #expect(http.requestCount == 1)
        monitor.report(satisfied: true)
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: 2)
        #expect(await eventually { recorder.states.last == .open })
        #expect(http.requestCount == 2)
    }

    @Test("the app returning to the foreground ends a backoff the same way; a path that never changed does not")
    func foregroundEndsBackoff() async throws {
        http.enqueue(.networkError(), .networkError(), .hangingOpen)
        let transport = makeTransport(random: 0)
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        try await failConnections(1)
        monitor.report(satisfied: true)  // Satisfied all along: nothing returned.
        #expect(http.requestCount == 1)
        transport.networkMayHaveReturned()
        #expect(await eventually { http.requestCount == 2 }, "with no jitter (random 0), at once")
        #expect(await eventually { recorder.reconnects.count == 2 })
        #expect(recorder.reconnects.map(\.attempt) == [1, 1])
    }

    @Test("close stops the monitor")
    func closeStopsTheMonitor() {
        let transport = makeTransport()
        transport.close()
        #expect(monitor.isCancelled)
    }
}
