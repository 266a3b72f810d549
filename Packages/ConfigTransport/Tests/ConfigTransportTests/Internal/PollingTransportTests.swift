@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Polling transport", .timeLimit(.minutes(1)))
struct PollingTransportTests {
    let clock = ManualClock()
    let http = FakeHTTPClient()
    let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
    let recorder = TransportEventRecorder()

    private func makeTransport(
        pollingInterval: Double = 60,
        maxEventSize: Int = 1 << 20,
        connectionTimeout: Double = TransportConfiguration.defaultConnectionTimeout
    ) -> any Transport {
        Fixtures.makeTransport(
            .polling,
            configuration: Fixtures.configuration(
                clock: clock,
                logger: logger,
                maxEventSize: maxEventSize,
                pollingInterval: pollingInterval,
                connectionTimeout: connectionTimeout
            ),
            http: http,
            recorder: recorder
        )
    }

    /// Waits until polling sleeps for its interval: the fetch before it is over, and all it reported has shown.
    private func awaitIntervalSleep(_ interval: Double = 60) async {
        #expect(await eventually { clock.sleeperCount == 1 && clock.requestedDelays.last == interval })
    }

    /// Waits until polling sleeps for its interval, then lets the interval pass and waits for the next request.
    private func passInterval(_ interval: Double = 60) async {
        await awaitIntervalSleep(interval)
        let requests = http.requestCount
        clock.advance(by: interval)
        #expect(await eventually { http.requestCount == requests + 1 })
    }

    /// The `lastUpdateTimestamp` that request `index` sent.
    private func sentTimestamp(_ index: Int) throws -> String? {
        try Fixtures.body(of: http.requests[index])["lastUpdateTimestamp"] as? String
    }

    @Test("fetches at connect with the polling request of §1–§2, and applies a 200")
    func firstFetch() async throws {
        http.enqueue(.status(200, body: Fixtures.fullSetJSON))
        let transport = makeTransport(connectionTimeout: 7)
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, context: Fixtures.context, recorder: recorder) == .open)
        #expect(await eventually { recorder.events.count == 2 })
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
        #expect(
            request.headers == [
                "Content-Type": "application/json", "Cache-Control": "no-store",
                "User-Agent": "swift-client-sdk/\(ConfigDirectorSDK.version) (iOS; \(ConfigDirectorSDK.architecture))",
            ])
        #expect(request.timeout == 7, "the request timeout is connectionTimeout")
        let body = try Fixtures.body(of: request)
        #expect(body["lastUpdateTimestamp"] == nil)
        #expect(body["clientSdkKey"] as? String == Fixtures.sdkKey)
        #expect((body["givenContext"] as? [String: Any])?["id"] as? String == "user-123")
    }

    @Test("connect returns at once and reports .open when the first poll answers; only the poll has a deadline")
    func connectReturnsAtOnce() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { http.requestCount == 1 && clock.sleeperCount == 1 })
        let exchange = try #require(http.exchanges.first)
        #expect(recorder.events.isEmpty, "nothing is reported before the service answers")
        #expect(
            clock.requestedDelays == [TransportConfiguration.defaultConnectionTimeout],
            "the one wait is the poll's own deadline (3 s by default): the connect deadline is the owner's"
        )
        #expect(exchange.request.timeout == TransportConfiguration.defaultConnectionTimeout)
        exchange.send(.head(HTTPResponseHead(statusCode: 200)))
        exchange.send(#"{"configs":{}}"#)
        exchange.finish()
        #expect(await eventually { recorder.states == [.open] })
        #expect(await eventually { recorder.configSets.count == 1 })
    }

    @Test("polls every interval, carrying lastUpdateTimestamp, also across a change of context")
    func intervalAndTimestamp() async throws {
        http.enqueue(.status(200, body: Fixtures.fullSetJSON), .status(200, body: Fixtures.deltaSetJSON))
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: Fixtures.context, reason: .initialization)
        await passInterval()
        #expect(try sentTimestamp(1) == "2026-08-29T00:00:00Z")
        await awaitIntervalSleep()
        #expect(recorder.configSets.count == 2)
        http.enqueue(.status(200, body: Fixtures.fullSetJSON))
        let outcome = await connectAndAwaitOutcome(
            transport,
            context: ConfigDirectorContext(id: "someone-else"),
            reason: .contextUpdate,
            recorder: recorder
        )
        #expect(outcome == .open)
        let third = try Fixtures.body(of: http.requests[2])
        #expect(third["lastUpdateTimestamp"] as? String == "2026-08-29T00:01:00Z")
        #expect((third["givenContext"] as? [String: Any])?["id"] as? String == "someone-else")
    }

    @Test("replaces lastUpdateTimestamp with each decoded 200's timestamp, and clears it when a 200 has none")
    func timestampReplacedAndCleared() async throws {
        http.enqueue(
            .status(200, body: Fixtures.fullSetJSON),
            .status(200, body: Fixtures.deltaSetJSON),
            .status(200, body: "{\"configs\":{}}"),
            .status(200, body: Fixtures.fullSetJSON)
        )
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        for _ in 1...3 {
            await passInterval()
        }
        #expect(try sentTimestamp(0) == nil)
        #expect(try sentTimestamp(1) == "2026-08-29T00:00:00Z")
        #expect(try sentTimestamp(2) == "2026-08-29T00:01:00Z", "a newer timestamp replaces the last one")
        #expect(try sentTimestamp(3) == nil, "a 200 without a timestamp clears it")
        await passInterval()
        #expect(try sentTimestamp(4) == "2026-08-29T00:00:00Z")
        // Each set was reported before polling waited for the next request.
        #expect(
            recorder.configSets.map(\.timestamp) == [
                "2026-08-29T00:00:00Z", "2026-08-29T00:01:00Z", nil, "2026-08-29T00:00:00Z",
            ]
        )
    }

    @Test("keeps lastUpdateTimestamp across a 200 that does not decode, another 2xx and a failed poll")
    func timestampKeptWithoutDecodedSet() async throws {
        http.enqueue(
            .status(200, body: Fixtures.fullSetJSON),
            .status(200, body: "[1, 2"),
            .status(204),
            .status(500)
        )
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        for _ in 1...4 {
            await passInterval()
        }
        #expect(try (1...4).map(sentTimestamp) == Array(repeating: "2026-08-29T00:00:00Z", count: 4))
    }

    @Test("raises an interval under 30 s to 30 s, and warns of nothing itself: the client does")
    func intervalFloor() async throws {
        let configuration = Fixtures.configuration(clock: clock, logger: logger, pollingInterval: 5)
        let factory = HTTPTransportFactory(mode: .polling, configuration: configuration, httpClient: { http })
        let transport = factory.makeTransport(handler: recorder.handler)
        defer { transport.close() }
        http.enqueue(.status(200, body: #"{"configs":{}}"#))
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        await passInterval(30)
        #expect(!clock.requestedDelays.contains(5))
        #expect(logger.messages(at: .warn).isEmpty)
    }

    @Test("another 2xx changes nothing and polling goes on", arguments: [201, 202, 204, 299])
    func otherSuccess(status: Int) async throws {
        http.enqueue(.status(status, body: Fixtures.fullSetJSON))
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        await passInterval()
        #expect(recorder.configSets.isEmpty)
        #expect(recorder.states == [.open])
        #expect(try Fixtures.body(of: http.requests[1])["lastUpdateTimestamp"] == nil)
    }

    @Test("a fatal 4xx stops polling for good; every later connect fails with the body cut to 200 characters")
    func fatal() async throws {
        let body = String(repeating: "a", count: 150) + String(repeating: "b", count: 550)
        http.enqueue(.status(403, body: body))
        let transport = makeTransport()
        defer { transport.close() }
        let expected = ConfigDirectorError.connectionFailed(message: String(body.prefix(200)), statusCode: 403)
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .failed(expected))
        // The later connect's failure comes only once the refused polling has ended: a poll after the
        // refusal would show before it, as a request or as a wait for the interval.
        let later = await connectAndAwaitOutcome(
            transport,
            context: Fixtures.context,
            reason: .contextUpdate,
            recorder: recorder
        )
        #expect(later == .failed(expected))
        #expect(http.requestCount == 1)
        #expect(!clock.requestedDelays.contains(60))
        #expect(recorder.states == [.failed(expected), .failed(expected)])
        #expect(!logger.mentions(body), "a body is logged cut short")
        #expect(
            logger.entries.filter { $0.level != .debug }.allSatisfy { !$0.message.contains("aaaaaaaaaa") },
            "a body is logged only at debug level"
        )
        #expect(logger.messages(at: .debug).contains { $0.contains("aaaaaaaaaa") })
    }

    @Test("401 is fatal: .failed is reported once per connect and polling does not go on")
    func unauthorized() async throws {
        http.enqueue(.status(401))
        let transport = makeTransport()
        defer { transport.close() }
        let expected = ConfigDirectorError.connectionFailed(
            message: "the service answered with status 401",
            statusCode: 401
        )
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .failed(expected))
        // Polling would wait for its interval next; let it pass, then wait for the later connect's answer,
        // which comes only once the refused polling has ended.
        clock.advance(by: 10_000)
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .failed(expected))
        #expect(http.requestCount == 1)
        #expect(recorder.states == [.failed(expected), .failed(expected)])
        #expect(!clock.requestedDelays.contains(60), "polling never waited for a next poll")
    }

    @Test("a fatal status on a later poll stops polling and fails later connects")
    func fatalLater() async throws {
        http.enqueue(.status(200, body: Fixtures.fullSetJSON), .status(401))
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        await passInterval()
        let expected = ConfigDirectorError.connectionFailed(
            message: "the service answered with status 401",
            statusCode: 401
        )
        #expect(await eventually { recorder.states.last == .failed(expected) })
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .failed(expected))
        #expect(http.requestCount == 2)
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
        transport.connect(context: nil, reason: .initialization)
        for _ in 1...4 {
            await passInterval()
        }
        #expect(await eventually { recorder.configSets.count == 1 })
        let networkError = "network error: " + URLError(.networkConnectionLost).localizedDescription
        #expect(
            recorder.states == [
                .reconnecting(attempt: 1, delay: 60, failure: TransportFailure("status 500", statusCode: 500)),
                .reconnecting(attempt: 2, delay: 60, failure: TransportFailure("status 429", statusCode: 429)),
                .reconnecting(attempt: 3, delay: 60, failure: TransportFailure(networkError)),
                .reconnecting(
                    attempt: 4, delay: 60,
                    failure: TransportFailure("status 302: redirects are not followed", statusCode: 302)),
                .open,
            ]
        )
        #expect(logger.messages(at: .warn).count == 1)
        #expect(logger.messages(at: .info).contains { $0.contains("succeeded again") })
        #expect(!logger.mentions(Fixtures.sdkKey))
    }

    @Test("a 200 without a configs object is a protocol violation: logged once, nothing applied, polled again")
    func notAConfigSet() async throws {
        http.enqueue(
            .status(200, body: Fixtures.fullSetJSON),
            .status(200, body: "{}"),
            .status(200, body: #"{"ts": 1733100000, "timestamp": "2030-01-01T00:00:00Z"}"#),
            .status(200, body: #"{"configs": null}"#),
            .status(200, body: Fixtures.deltaSetJSON)
        )
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        for _ in 1...4 {
            await passInterval()
        }
        #expect(await eventually { recorder.configSets.count == 2 })
        #expect(recorder.configSets.map(\.kind) == [.full, .delta], "no empty full set was handed on")
        let notASet = TransportFailure(
            "the 200 response has no configs object, so it is not a config set", statusCode: 200)
        #expect(
            recorder.states == [
                .open, .reconnecting(attempt: 1, delay: 60, failure: notASet),
                .reconnecting(attempt: 2, delay: 60, failure: notASet),
                .reconnecting(attempt: 3, delay: 60, failure: notASet), .open,
            ])
        let warnings = logger.messages(at: .warn)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("no configs object") == true)
        #expect(
            try (1...4).map(sentTimestamp) == Array(repeating: "2026-08-29T00:00:00Z", count: 4),
            "the timestamp of a payload that is not a set is not echoed")
    }

    @Test(
        "a longer Retry-After on 429 and 503 delays the next poll, capped at one hour; a shorter one keeps the interval"
    )
    func retryAfter() async throws {
        http.enqueue(
            .status(503, headers: ["Retry-After": "120"]),
            .status(429, headers: ["Retry-After": "99999"]),
            .status(500, headers: ["Retry-After": "90"]),
            .status(503, headers: ["Retry-After": "10"]),
            .status(200, body: Fixtures.fullSetJSON)
        )
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        for wait in [120.0, 3600, 60, 60] {
            await passInterval(wait)
        }
        #expect(await eventually { recorder.configSets.count == 1 })
        #expect(
            recorder.states == [
                .reconnecting(attempt: 1, delay: 120, failure: TransportFailure("status 503", statusCode: 503)),
                .reconnecting(attempt: 2, delay: 3600, failure: TransportFailure("status 429", statusCode: 429)),
                .reconnecting(attempt: 3, delay: 60, failure: TransportFailure("status 500", statusCode: 500)),
                .reconnecting(attempt: 4, delay: 60, failure: TransportFailure("status 503", statusCode: 503)),
                .open,
            ])
        #expect(logger.messages(at: .warn).first?.contains("the next in 120.0 s") == true)
    }

    @Test("an HTTP-date Retry-After counts from the response's Date, so a local clock an hour slow waits 2 minutes")
    func retryAfterDateFromResponse() async throws {
        let serverNow = clock.now().addingTimeInterval(3600)
        http.enqueue(
            .status(
                503,
                headers: [
                    "Date": Self.httpDate(serverNow), "Retry-After": Self.httpDate(serverNow.addingTimeInterval(120)),
                ]),
            // Asked for 90 s after the local time of the second poll, which comes 120 s after the first.
            .status(429, headers: ["Retry-After": Self.httpDate(clock.now().addingTimeInterval(120 + 90))]),
            .status(200, body: Fixtures.fullSetJSON)
        )
        let transport = makeTransport(pollingInterval: 30)
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        await passInterval(120)
        // Without a Date header, the local clock is all there is.
        await passInterval(90)
        #expect(await eventually { recorder.configSets.count == 1 })
        #expect(recorder.reconnects.map(\.delay) == [120, 90])
    }

    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test("skips a 200 whose set does not decode")
    func undecodable() async throws {
        http.enqueue(.status(200, body: "[1, 2"))
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        await awaitIntervalSleep()
        #expect(recorder.configSets.isEmpty)
        #expect(logger.messages(at: .warn).contains { $0.contains("does not decode") })
    }

    @Test("refuses a body larger than the limit")
    func oversizedBody() async throws {
        http.enqueue(.stream([String(repeating: "x", count: 80), String(repeating: "y", count: 80)]))
        let transport = makeTransport(maxEventSize: 100)
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        await awaitIntervalSleep()
        #expect(recorder.configSets.isEmpty)
        #expect(
            recorder.states == [
                .reconnecting(attempt: 1, delay: 60, failure: TransportFailure("a response larger than 100 bytes"))
            ])
        #expect(logger.mentions("larger than 100 bytes"))
        #expect(http.exchanges.first?.isCancelled == true)
    }

    @Test("a poll that gets no answer within connectionTimeout is dropped and counts as a failed poll")
    func requestTimeout() async throws {
        let transport = makeTransport(connectionTimeout: 4)
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { http.requestCount == 1 && clock.sleeperCount == 1 })
        #expect(clock.requestedDelays == [4])
        clock.advance(by: 4)
        #expect(await eventually { http.exchanges.first?.isCancelled == true })
        let timedOut = TransportFailure("no response within 4.0 s")
        #expect(await eventually { recorder.states == [.reconnecting(attempt: 1, delay: 60, failure: timedOut)] })
        #expect(logger.mentions("no response within 4"))
    }

    @Test("close stops polling and releases the HTTP layer")
    func close() async throws {
        http.enqueue(.status(200, body: "{}"))
        let transport = makeTransport()
        transport.connect(context: nil, reason: .initialization)
        await awaitIntervalSleep()
        transport.close()
        // The wait for the next poll is cancelled: polling ends there, and nothing is left that could poll.
        #expect(await eventually { clock.sleeperCount == 0 })
        #expect(http.requestCount == 1)
        #expect(http.shutdownCount == 1)
        transport.connect(context: nil, reason: .initialization)
        #expect(
            logger.messages(at: .debug).contains { $0.contains("closed polling transport") },
            "a connect after close is refused at once, starting nothing"
        )
        #expect(http.requestCount == 1)
    }

    @Test("disconnect stops polling; connect starts again with a fetch")
    func disconnect() async throws {
        http.enqueue(.status(200, body: #"{"configs":{}}"#), .status(200, body: #"{"configs":{}}"#))
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        transport.disconnect()
        #expect(await eventually { clock.sleeperCount == 0 })
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        #expect(http.requestCount == 2)
    }
}
