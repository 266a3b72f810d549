@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Our own request too large: Last-Event-ID of sane length, 413 and 431 retried", .timeLimit(.minutes(1)))
struct RequestSizeTests {
    let clock = ManualClock()
    let http = FakeHTTPClient()
    let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
    let recorder = TransportEventRecorder()

    private func makeTransport(_ mode: HTTPTransportFactory.Mode = .streaming) -> any Transport {
        Fixtures.makeTransport(
            mode,
            configuration: Fixtures.configuration(clock: clock, logger: logger),
            http: http,
            recorder: recorder
        )
    }

    /// Waits for the `count`-th reconnect, then lets its delay pass.
    private func passReconnect(_ count: Int) async throws {
        #expect(await eventually { recorder.reconnects.count >= count && clock.sleeperCount > 0 })
        let reconnect = try #require(recorder.reconnects.dropFirst(count - 1).first)
        clock.advance(by: reconnect.delay)
    }

    @Test("ignore an id above 1,024 bytes: the last sane id is sent on the reconnect")
    func oversizedIDIsIgnored() async throws {
        let huge = String(repeating: "i", count: SSEParser.maximumEventIDLength + 1)
        let longest = String(repeating: "j", count: SSEParser.maximumEventIDLength)
        let transport = makeTransport()
        defer { transport.close() }
        http.enqueue(
            .stream([Fixtures.event(Fixtures.fullSetJSON, id: "42"), Fixtures.event(Fixtures.deltaSetJSON, id: huge)]),
            .stream([Fixtures.event(Fixtures.deltaSetJSON, id: longest)]),
            .hangingOpen
        )
        transport.connect(context: nil, reason: .initialization)
        try await passReconnect(1)
        try await passReconnect(2)
        #expect(await eventually { http.requestCount == 3 })
        #expect(http.requests.map { $0.headers["Last-Event-ID"] } == [nil, "42", longest])
        #expect(recorder.configSets.count == 3, "the event of the oversized id is delivered all the same")
    }

    @Test(
        "answer 413 and 431 to the stream with a reconnect with backoff, without Last-Event-ID",
        arguments: [413, 431]
    )
    func streamingRetriesTooLargeRequest(status: Int) async throws {
        let transport = makeTransport()
        defer { transport.close() }
        http.enqueue(
            .stream([Fixtures.event(Fixtures.fullSetJSON, id: "42")]),
            .status(status),
            .status(status),
            .stream([Fixtures.event(Fixtures.deltaSetJSON)], ending: .hang)
        )
        transport.connect(context: nil, reason: .initialization)
        for count in 1...3 {
            try await passReconnect(count)
        }
        #expect(await eventually { recorder.configSets.count == 2 })
        #expect(http.requests.map { $0.headers["Last-Event-ID"] } == [nil, "42", nil, nil])
        let attempts = recorder.reconnects.map(\.attempt)
        #expect(attempts == [1, 2, 3], "the refusals grow the backoff; only the first connection delivered")
        #expect(!recorder.states.contains { if case .failed = $0 { true } else { false } })
        #expect(logger.messages(at: .error).isEmpty)
    }

    @Test("answer 413 and 431 to a poll with the next poll, not a refusal for good", arguments: [413, 431])
    func pollingRetriesTooLargeRequest(status: Int) async throws {
        let transport = makeTransport(.polling)
        defer { transport.close() }
        http.enqueue(.status(status), .status(200, body: Fixtures.fullSetJSON))
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { recorder.reconnects.count == 1 && clock.sleeperCount > 0 })
        clock.advance(by: 60)
        #expect(await eventually { recorder.configSets.count == 1 })
        #expect(logger.messages(at: .error).isEmpty)
    }
}
