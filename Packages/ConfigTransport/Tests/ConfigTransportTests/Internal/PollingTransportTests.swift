@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import Testing

@Suite("Polling transport")
struct PollingTransportTests {
    let clock = ManualClock()
    let http = FakeHTTPClient()
    let logger = RecordingLogger()
    let recorder = EventRecorder()

    private func makeTransport(pollingInterval: Double = 60, maxEventSize: Int = 1 << 20) -> any Transport {
        Fixtures.makeTransport(
            .polling,
            configuration: Fixtures.configuration(
                clock: clock,
                logger: logger,
                maxEventSize: maxEventSize,
                pollingInterval: pollingInterval
            ),
            http: http,
            recorder: recorder
        )
    }

    /// Waits until polling sleeps for its interval, then lets the interval pass and waits for the next request.
    private func passInterval(_ interval: Double = 60) async {
        let requests = http.requestCount
        #expect(await eventually { clock.sleeperCount == 1 && clock.requestedSleeps.last == interval })
        clock.advance(by: interval)
        #expect(await eventually { http.requestCount == requests + 1 })
    }

    @Test("fetches inside connect with the polling request of §1–§2, and applies a 200")
    func firstFetch() async throws {
        http.enqueue(.status(200, body: Fixtures.fullSetJSON))
        let transport = makeTransport()
        defer { transport.close() }
        try await transport.connect(context: Fixtures.context, timeout: 7)
        #expect(
            recorder.events == [
                .connectionState(.open),
                .configSet(
                    try JSONDecoder().decode(
                        ConfigSet.self,
                        from: Data(Fixtures.fullSetJSON.utf8)
                    )
                ),
            ]
        )
        let request = try #require(http.requests.first)
        #expect(request.url.absoluteString == "https://proxy.example.com/cd/client/polling/v1")
        #expect(request.headers == ["Content-Type": "application/json", "Cache-Control": "no-store"])
        #expect(request.timeout == 7, "the request timeout is the connection timeout")
        let body = try Fixtures.body(of: request)
        #expect(body["lastUpdateTimestamp"] == nil)
        #expect(body["clientSdkKey"] as? String == Fixtures.sdkKey)
        #expect((body["givenContext"] as? [String: Any])?["id"] as? String == "user-123")
    }

    @Test("polls every interval, carrying lastUpdateTimestamp, also across a change of context")
    func intervalAndTimestamp() async throws {
        http.enqueue(.status(200, body: Fixtures.fullSetJSON), .status(200, body: Fixtures.deltaSetJSON))
        let transport = makeTransport()
        defer { transport.close() }
        try await transport.connect(context: Fixtures.context, timeout: 5)
        await passInterval()
        #expect(try Fixtures.body(of: http.requests[1])["lastUpdateTimestamp"] as? String == "2026-08-29T00:00:00Z")
        #expect(await eventually { recorder.configSets.count == 2 })
        http.enqueue(.status(200, body: "{\"configs\":{}}"))
        try await transport.connect(context: ConfigDirectorContext(id: "someone-else"), timeout: 5)
        let third = try Fixtures.body(of: http.requests[2])
        #expect(third["lastUpdateTimestamp"] as? String == "2026-08-29T00:01:00Z")
        #expect((third["givenContext"] as? [String: Any])?["id"] as? String == "someone-else")
        http.enqueue(.status(200, body: "{}"))
        await passInterval()
        #expect(
            try Fixtures.body(of: http.requests[3])["lastUpdateTimestamp"] as? String == "2026-08-29T00:01:00Z",
            "a set without timestamp keeps the last one"
        )
    }

    @Test("raises an interval under 30 s to 30 s with one warning")
    func intervalFloor() async throws {
        let configuration = Fixtures.configuration(clock: clock, logger: logger, pollingInterval: 5)
        let factory = HTTPTransportFactory(mode: .polling, configuration: configuration, httpClient: { http })
        let first = factory.makeTransport(handler: recorder.handler)
        let second = factory.makeTransport(handler: { _ in })
        defer {
            first.close()
            second.close()
        }
        #expect(logger.messages(at: .warn).count == 1)
        #expect(logger.messages(at: .warn).first?.contains("30") == true)
        http.enqueue(.status(200, body: "{}"))
        try await first.connect(context: nil, timeout: 5)
        await passInterval(30)
        #expect(logger.messages(at: .warn).count == 1)
    }

    @Test("another 2xx changes nothing and polling goes on", arguments: [201, 202, 204, 299])
    func otherSuccess(status: Int) async throws {
        http.enqueue(.status(status, body: Fixtures.fullSetJSON))
        let transport = makeTransport()
        defer { transport.close() }
        try await transport.connect(context: nil, timeout: 5)
        #expect(recorder.configSets.isEmpty)
        #expect(recorder.states == [.open])
        await passInterval()
        #expect(try Fixtures.body(of: http.requests[1])["lastUpdateTimestamp"] == nil)
    }

    @Test("a fatal 4xx stops polling for good; every later connect fails with the body cut to 200 characters")
    func fatal() async throws {
        let body = String(repeating: "a", count: 150) + String(repeating: "b", count: 550)
        http.enqueue(.status(403, body: body))
        let transport = makeTransport()
        defer { transport.close() }
        let expected = ConfigDirectorError.connectionFailed(message: String(body.prefix(200)), statusCode: 403)
        await #expect(throws: expected) { try await transport.connect(context: nil, timeout: 5) }
        await #expect(throws: expected) { try await transport.connect(context: Fixtures.context, timeout: 5) }
        clock.advance(by: 10_000)
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(http.requestCount == 1)
        #expect(recorder.states == [.failed(expected)])
        #expect(logger.messages(at: .error).count == 1)
        #expect(logger.messages(at: .error).first?.contains("unrecoverable") == true)
        #expect(!logger.mentions(body), "a body is logged cut short")
        #expect(
            logger.entries.filter { $0.level != .debug }.allSatisfy { !$0.message.contains("aaaaaaaaaa") },
            "a body is logged only at debug level"
        )
        #expect(logger.messages(at: .debug).contains { $0.contains("aaaaaaaaaa") })
    }

    @Test("a fatal status on a later poll stops polling and fails later connects")
    func fatalLater() async throws {
        http.enqueue(.status(200, body: Fixtures.fullSetJSON), .status(401))
        let transport = makeTransport()
        defer { transport.close() }
        try await transport.connect(context: nil, timeout: 5)
        await passInterval()
        let expected = ConfigDirectorError.connectionFailed(
            message: "the service answered with status 401",
            statusCode: 401
        )
        #expect(await eventually { recorder.states.last == .failed(expected) })
        await #expect(throws: expected) { try await transport.connect(context: nil, timeout: 5) }
        #expect(clock.sleeperCount == 0)
    }

    @Test("anything else is logged once and polling continues at the interval")
    func transient() async throws {
        http.enqueue(
            .status(500),
            .status(429),
            .networkError(),
            .status(302),
            .status(200, body: Fixtures.fullSetJSON)
        )
        let transport = makeTransport()
        defer { transport.close() }
        try await transport.connect(context: nil, timeout: 5)
        for _ in 1...4 {
            await passInterval()
        }
        #expect(await eventually { recorder.configSets.count == 1 })
        #expect(
            recorder.states == [
                .reconnecting(attempt: 1, delay: 60), .reconnecting(attempt: 2, delay: 60),
                .reconnecting(attempt: 3, delay: 60), .reconnecting(attempt: 4, delay: 60), .open,
            ]
        )
        #expect(logger.messages(at: .warn).count == 1)
        #expect(logger.messages(at: .info).contains { $0.contains("succeeded again") })
        #expect(!logger.mentions(Fixtures.sdkKey))
    }

    @Test("skips a 200 whose set does not decode")
    func undecodable() async throws {
        http.enqueue(.status(200, body: "[1, 2"))
        let transport = makeTransport()
        defer { transport.close() }
        try await transport.connect(context: nil, timeout: 5)
        #expect(recorder.configSets.isEmpty)
        #expect(logger.messages(at: .warn).contains { $0.contains("does not decode") })
    }

    @Test("refuses a body larger than the limit")
    func oversizedBody() async throws {
        http.enqueue(.stream([String(repeating: "x", count: 80), String(repeating: "y", count: 80)]))
        let transport = makeTransport(maxEventSize: 100)
        defer { transport.close() }
        try await transport.connect(context: nil, timeout: 5)
        #expect(recorder.configSets.isEmpty)
        #expect(recorder.states == [.reconnecting(attempt: 1, delay: 60)])
        #expect(logger.mentions("larger than 100 bytes"))
        #expect(http.exchanges.first?.isCancelled == true)
    }

    @Test("a request that gets no answer within the connection timeout is dropped and connect returns")
    func requestTimeout() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        let connecting = Task { try await transport.connect(context: nil, timeout: 5) }
        #expect(await eventually { http.requestCount == 1 && clock.sleeperCount == 2 })
        clock.advance(by: 5)
        try await connecting.value
        #expect(await eventually { http.exchanges.first?.isCancelled == true })
        #expect(await eventually { recorder.states == [.reconnecting(attempt: 1, delay: 60)] })
    }

    @Test("close stops polling and releases the HTTP layer")
    func close() async throws {
        http.enqueue(.status(200, body: "{}"))
        let transport = makeTransport()
        try await transport.connect(context: nil, timeout: 5)
        #expect(await eventually { clock.sleeperCount == 1 })
        transport.close()
        #expect(await eventually { clock.sleeperCount == 0 })
        clock.advance(by: 10_000)
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(http.requestCount == 1)
        #expect(http.shutdownCount == 1)
    }

    @Test("disconnect stops polling; connect starts again with a fetch")
    func disconnect() async throws {
        http.enqueue(.status(200, body: "{}"), .status(200, body: "{}"))
        let transport = makeTransport()
        defer { transport.close() }
        try await transport.connect(context: nil, timeout: 5)
        transport.disconnect()
        #expect(await eventually { clock.sleeperCount == 0 })
        try await transport.connect(context: nil, timeout: 5)
        #expect(http.requestCount == 2)
    }
}
