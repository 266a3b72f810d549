@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Streaming transport", .timeLimit(.minutes(1)))
struct StreamingTransportTests {
    let clock = ManualClock()
    let http = FakeHTTPClient()
    let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
    let recorder = TransportEventRecorder()

    private func makeTransport(
        random: @escaping @Sendable () -> Double = { 0.5 },
        maxEventSize: Int = TransportConfiguration.defaultMaxEventSize
    ) -> any Transport {
        Fixtures.makeTransport(
            .streaming,
            configuration: Fixtures.configuration(
                clock: clock,
                logger: logger,
                random: random,
                maxEventSize: maxEventSize
            ),
            http: http,
            recorder: recorder
        )
    }

    /// Waits for the `count`-th reconnect, then lets its delay pass.
    private func passReconnect(_ count: Int) async throws -> (attempt: Int, delay: Double) {
        #expect(await eventually { recorder.reconnects.count >= count && clock.sleeperCount > 0 })
        let reconnect = try #require(recorder.reconnects.dropFirst(count - 1).first)
        clock.advance(by: reconnect.delay)
        return reconnect
    }

    @Test("posts the body of §2 with the streaming headers of §1")
    func requestShape() async throws {
        http.enqueue(.hangingOpen)
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, context: Fixtures.context, recorder: recorder) == .open)
        let request = try #require(http.requests.first)
        #expect(request.url.absoluteString == "https://proxy.example.com/cd/client/sse/v1")
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Accept"] == "text/event-stream")
        #expect(request.headers["Cache-Control"] == "no-store")
        #expect(request.headers["Last-Event-ID"] == nil)
        #expect(
            request.headers["User-Agent"]
                == "swift-client-sdk/\(ConfigDirectorSDK.version) (iOS; \(ConfigDirectorSDK.architecture))")
        let body = try Fixtures.body(of: request)
        #expect(body["clientSdkKey"] as? String == Fixtures.sdkKey)
        #expect(body["instanceId"] as? String == Fixtures.instanceID)
        #expect(body["lastUpdateTimestamp"] == nil)
        let context = try #require(body["givenContext"] as? [String: Any])
        #expect(context["id"] as? String == "user-123")
        #expect(context["name"] as? String == "Ada")
        #expect(context["kind"] == nil)
        #expect((context["traits"] as? [String: Any])?["plan"] as? String == "pro")
        let meta = try #require(body["metaContext"] as? [String: Any])
        #expect(meta["sdkName"] as? String == "swift-client-sdk")
        #expect(meta["appName"] as? String == "MyApp")
        #expect(meta["userAgent"] as? String == "iOS")
    }

    @Test("sends an empty object as givenContext when there is no context")
    func emptyContext() async throws {
        http.enqueue(.hangingOpen)
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        let body = try Fixtures.body(of: try #require(http.requests.first))
        #expect((body["givenContext"] as? [String: Any])?.isEmpty == true)
    }

    @Test("connect returns at once and reports .open when the stream opens; its only timers are the stall deadlines")
    func connectReturnsAtOnce() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { http.requestCount == 1 })
        let exchange = try #require(http.exchanges.first)
        #expect(recorder.events.isEmpty, "nothing is reported before the service answers")
        exchange.send(.head(HTTPResponseHead(statusCode: 200, headers: ["Content-Type": "text/event-stream"])))
        #expect(await eventually { !recorder.events.isEmpty })
        #expect(recorder.events == [.connectionState(.open)])
        // The connect deadline is the owner's: the transport waits only for the headers, then the first bytes.
        // A deadline replaced before its timer ran sleeps for nothing: the 30 s wait may not show.
        #expect(await eventually { clock.requestedDelays.last == 45 })
        #expect(Set(clock.requestedDelays).isSubset(of: [30, 45]))
        #expect(!exchange.isCancelled)
    }

    @Test("reports .open once the stream opens, then each config set in order")
    func opensAndDelivers() async throws {
        http.enqueue(
            .stream([Fixtures.event(Fixtures.fullSetJSON), Fixtures.event(Fixtures.deltaSetJSON)], ending: .hang)
        )
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, context: Fixtures.context, recorder: recorder) == .open)
        #expect(await eventually { recorder.configSets.count == 2 })
        #expect(recorder.states == [.open])
        #expect(recorder.configSets.map(\.kind) == [.full, .delta])
        #expect(recorder.configSets.first?.configs["dark-mode"]?.value == "true")
        guard case .connectionState(.open) = recorder.events.first else {
            Issue.record("the first event is not .open")
            return
        }
    }

    @Test("a quiet stream that has begun its body is never dropped: its request has no timeout, no deadline is left")
    func quietStreamStaysOpen() async throws {
        http.enqueue(.stream([": hello\n"], ending: .hang))
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        let exchange = try #require(http.exchanges.first)
        #expect(exchange.request.timeout == .infinity, "the HTTP layer must not end a silent stream either")
        #expect(await eventually { clock.sleeperCount == 0 }, "the first bytes lifted the deadline")
        clock.advance(by: 10_000)
        // An event sent after the long silence arrives over the same exchange: a dropped stream would not
        // deliver it, and its reconnect would be reported before it.
        exchange.send(Fixtures.event(Fixtures.fullSetJSON))
        #expect(await eventually { recorder.configSets.count == 1 })
        #expect(recorder.states == [.open])
        #expect(recorder.reconnects.isEmpty)
        #expect(!exchange.isCancelled)
        #expect(http.requestCount == 1)
        // The two deadlines of the start; the second thing the stream sent teaches it a rhythm (its silence
        // watch is then three times the gap): no idle timer waited before.
        #expect(
            clock.requestedDelays.allSatisfy { $0 == 30 || $0 == 45 || $0 >= 10_000 },
            "no idle timer waits on the transport's clock: \(clock.requestedDelays)")
    }

    @Test("a stream that stalls before its headers ends after the connection timeout or 30 s, the larger, and retries")
    func stallBeforeHeaders() async throws {
        for (connectionTimeout, deadline) in [(3.0, 30.0), (40.0, 40.0)] {
            let clock = ManualClock()
            let http = FakeHTTPClient()
            let recorder = TransportEventRecorder()
            let transport = Fixtures.makeTransport(
                .streaming,
                configuration: Fixtures.configuration(
                    clock: clock, logger: logger, connectionTimeout: connectionTimeout),
                http: http,
                recorder: recorder
            )
            defer { transport.close() }
            transport.connect(context: nil, reason: .initialization)
            #expect(await eventually { clock.sleeperCount == 1 })
            #expect(clock.requestedDelays == [deadline])
            clock.advance(by: deadline - 0.5)
            // Nothing yet: the half second left is the point after which the stall would have been noticed.
            #expect(recorder.events.isEmpty)
            #expect(http.exchanges.first?.isCancelled == false)
            clock.advance(by: 0.5)
            #expect(await eventually { recorder.reconnects.count == 1 })
            #expect(http.exchanges.first?.isCancelled == true)
            let stalled = TransportFailure("no response headers within \(deadline) s")
            #expect(recorder.states == [.reconnecting(attempt: 1, delay: 1.5, failure: stalled)])
        }
        #expect(logger.messages(at: .warn).filter { $0.contains("no response headers within") }.count == 2)
    }

    @Test("a stream whose body does not begin within 45 s of its headers ends and retries; the values are not touched")
    func stallAfterHeaders() async throws {
        http.enqueue(.hangingOpen, .stream([Fixtures.event(Fixtures.fullSetJSON)], ending: .hang))
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        #expect(await eventually { clock.requestedDelays.last == 45 && clock.sleeperCount == 1 })
        clock.advance(by: 45)
        let reconnect = try await passReconnect(1)
        #expect(reconnect.attempt == 1)
        #expect(await eventually { recorder.configSets.count == 1 })
        #expect(http.exchanges.first?.isCancelled == true)
        let stalled = TransportFailure("no data within 45.0 s of the response headers")
        #expect(recorder.states == [.open, .reconnecting(attempt: 1, delay: 1.5, failure: stalled), .open])
        #expect(logger.messages(at: .warn).contains { $0.contains("no data within 45.0 s of the response headers") })
    }

    @Test(
        "a 200 that is not an event stream (a captive portal's page held open) ends at once and is retried",
        arguments: ["text/html; charset=utf-8", "application/json", "TEXT/PLAIN"])
    func notAnEventStream(contentType: String) async throws {
        let transport = await connectToAnswerGivenUp(
            status: 200, contentType: contentType, body: "<html>Sign in to the Wi-Fi</html>")
        defer { transport.close() }
        let warnings = logger.messages(at: .warn)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("not text/event-stream") == true)
        #expect(warnings.first?.contains(String(contentType.lowercased().prefix { $0 != ";" })) == true)
        #expect(!logger.mentions("Sign in"), "the page itself is not logged")
        #expect(recorder.failures.first?.description.contains("not text/event-stream") == true)
    }

    @Test("an event stream's Content-Type may carry parameters, and a response without one is read as a stream")
    func eventStreamContentTypes() async throws {
        for headers in [["Content-Type": " Text/Event-Stream ; charset=utf-8"], [:]] {
            let http = FakeHTTPClient()
            let recorder = TransportEventRecorder()
            http.enqueue(
                FakeHTTPClient.Response(
                    parts: [
                        .head(HTTPResponseHead(statusCode: 200, headers: headers)),
                        .body(Data(Fixtures.event(Fixtures.fullSetJSON).utf8)),
                    ],
                    ending: .hang
                )
            )
            let transport = Fixtures.makeTransport(
                .streaming, configuration: Fixtures.configuration(clock: clock), http: http, recorder: recorder)
            defer { transport.close() }
            transport.connect(context: nil, reason: .initialization)
            #expect(await eventually { recorder.configSets.count == 1 }, "\(headers)")
            #expect(recorder.reconnects.isEmpty)
        }
    }

    @Test(
        "a message that is not a config set (a heartbeat, a ping, an unknown event, data that is not an object) is skipped",
        arguments: [
            "event: heartbeat\ndata: {}\n\n", "event: ping\ndata: {\"ts\": 1733100000}\n\n",
            "event: whatever\ndata: {\"configs\": null}\n\n", "data: {\"kind\":\"full\",\"timestamp\":\"t\"}\n\n",
            "event: ping\ndata: ping\n\n", "data: 42\n\n", "data:  [1, 2]\n\n", "data: \"keep-alive\"\n\n",
        ])
    func heartbeatFrames(frame: String) async throws {
        http.enqueue(
            .stream(
                [Fixtures.event(Fixtures.fullSetJSON), frame, frame, Fixtures.event(Fixtures.deltaSetJSON)],
                ending: .hang
            )
        )
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { recorder.configSets.count == 2 })
        #expect(recorder.configSets.map(\.kind) == [.full, .delta], "only the two sets were handed on")
        #expect(recorder.reconnects.isEmpty)
        #expect(logger.messages(at: .warn).isEmpty && logger.messages(at: .error).isEmpty)
        #expect(logger.messages(at: .debug).filter { $0.contains("was skipped: a heartbeat") }.count == 2)
    }

    @Test("an object that does not decode (a set cut short) is skipped with one warning, the sets around it applied")
    func objectThatDoesNotDecode() async throws {
        let cut = "data: " + Fixtures.fullSetJSON.prefix(Fixtures.fullSetJSON.count / 2) + "\n\n"
        http.enqueue(
            .stream(
                [Fixtures.event(Fixtures.fullSetJSON), cut, Fixtures.event(Fixtures.deltaSetJSON)],
                ending: .hang
            )
        )
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { recorder.configSets.count == 2 })
        #expect(logger.messages(at: .warn) == ["A config set that does not decode was skipped."])
    }

    @Test("401 is fatal: .failed is reported once and nothing is retried; the message is redacted")
    func unauthorized() async throws {
        http.enqueue(.status(401, body: "{\"error\":\"unknown key \(Fixtures.sdkKey)\"}"))
        let transport = makeTransport()
        defer { transport.close() }
        let expected = ConfigDirectorError.connectionFailed(
            message: "{\"error\":\"unknown key <redacted>\"}",
            statusCode: 401
        )
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .failed(expected))
        // Any backoff a retry would wait for passes now, and the next connection starts only once the refused
        // one has ended: a retry would show before it, as a request, a reconnect or a warning.
        clock.advance(by: 10_000)
        http.enqueue(.hangingOpen)
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        #expect(http.requestCount == 2, "only the second connect made a request")
        #expect(recorder.states == [.failed(expected), .open])
        #expect(logger.messages(at: .warn).isEmpty)
        #expect(!logger.mentions(Fixtures.sdkKey))
    }

    @Test("a refusal whose body is a page, not the service's JSON, says who answered and never pastes the page")
    func refusalFromSomethingInFront() async throws {
        let page =
            "<html><head><title>Access denied</title></head><body>" + String(repeating: "x", count: 2_000)
            + "</body></html>"
        http.enqueue(.status(403, headers: ["Content-Type": "text/html"], body: page))
        let transport = makeTransport()
        defer { transport.close() }
        let outcome = await connectAndAwaitOutcome(transport, recorder: recorder)
        let expected = ConfigDirectorError.connectionFailed(
            message: "status 403 was answered by something in front of ConfigDirector (a proxy, captive portal or "
                + "bot protection), not by the service",
            statusCode: 403
        )
        #expect(outcome == .failed(expected), "still fatal, as PROTOCOL §4 says")
        #expect(
            logger.messages(at: .warn) == [
                "Streaming status 403 was answered by something in front of ConfigDirector (a proxy, captive portal "
                    + "or bot protection), not by the service."
            ])
        #expect(logger.entries.filter { $0.level != .debug }.allSatisfy { !$0.message.contains("Access denied") })
        let excerpt = try #require(logger.messages(at: .debug).first { $0.contains("Access denied") })
        #expect(excerpt.count < 300, "only a short excerpt of the page, at debug level")
    }

    @Test("reports a fatal status within 5 s even when its body never ends")
    func fatalWithEndlessBody() async throws {
        http.enqueue(
            FakeHTTPClient.Response(
                parts: [.head(HTTPResponseHead(statusCode: 403)), .body(Data("forbidden".utf8))],
                ending: .hang
            )
        )
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { clock.requestedDelays.contains(5) })
        #expect(recorder.events.isEmpty)
        clock.advance(by: 5)
        #expect(await eventually { !recorder.states.isEmpty })
        #expect(recorder.states == [.failed(.connectionFailed(message: "forbidden", statusCode: 403))])
    }

    @Test("releasing the transport without closing it stops its connection")
    func release() async throws {
        http.enqueue(.hangingOpen)
        var transport: (any Transport)? = makeTransport()
        do {
            let connecting = try #require(transport)
            #expect(await connectAndAwaitOutcome(connecting, recorder: recorder) == .open)
        }
        let exchange = try #require(http.exchanges.first)
        transport = nil
        #expect(await eventually { exchange.isCancelled })
        #expect(http.shutdownCount == 1)
    }

    @Test("every 4xx but 429 is fatal", arguments: [400, 403, 404, 410, 499])
    func fatalStatuses(status: Int) async throws {
        http.enqueue(.status(status))
        let transport = makeTransport()
        defer { transport.close() }
        guard
            case .failed(.connectionFailed(_, let statusCode))? = await connectAndAwaitOutcome(
                transport,
                recorder: recorder
            )
        else {
            Issue.record("status \(status) did not fail the connection: \(recorder.states)")
            return
        }
        #expect(statusCode == status)
        // A retry would show before the next connection, which starts only once the refused one has ended.
        clock.advance(by: 10_000)
        http.enqueue(.hangingOpen)
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        #expect(http.requestCount == 2)
        #expect(recorder.states.count == 2)
    }

    @Test("204 stops quietly: .stopped is reported, no reconnect, no warning or error")
    func noContent() async throws {
        http.enqueue(.status(204))
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .stopped)
        // A reconnect would show before the next connection, which starts only once this one has ended.
        clock.advance(by: 10_000)
        http.enqueue(.hangingOpen)
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        #expect(http.requestCount == 2)
        #expect(recorder.states == [.stopped, .open])
        #expect(logger.messages(at: .error).isEmpty && logger.messages(at: .warn).isEmpty)
    }

    @Test("the delays of attempts 1 to 12 lie in their bands, and empty connections never reset them")
    func backoffBands() async throws {
        let generator = Protected(SplitMix64(seed: 7))
        let transport = makeTransport(random: { generator.withLock { Double.random(in: 0...1, using: &$0) } })
        defer { transport.close() }
        http.enqueue(.networkError(), .status(500), .status(503), .status(429), .status(302))
        let emptyOpen = FakeHTTPClient.Response.stream([])
        for _ in 6...12 { http.enqueue(emptyOpen) }
        transport.connect(context: nil, reason: .initialization)
        for attempt in 1...12 {
            let reconnect = try await passReconnect(attempt)
            let ceiling = Double(1 << min(attempt, 9))
            #expect(reconnect.attempt == attempt)
            #expect((ceiling / 2...ceiling).contains(reconnect.delay), "attempt \(attempt): \(reconnect.delay)")
        }
        let warnings = logger.messages(at: .warn)
        #expect(warnings.count == 2, "an outage warns when it starts and once more at its fifth attempt")
        #expect(warnings.last?.contains("still failing after 5 attempts") == true)
        #expect(!logger.mentions(Fixtures.sdkKey))
    }

    @Test("starts the backoff over only after a connection delivered a set and stayed open 60 s")
    func resetAfterProvenConnection() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        // A comment, a retry line, and a set dropped at once never reset; a set held 60 s does.
        http.enqueue(.networkError(), .stream([": ping\n"]), .stream(["retry: 10\n"]))
        http.enqueue(.stream([Fixtures.event(Fixtures.fullSetJSON)]))
        http.enqueue(.stream([Fixtures.event(Fixtures.fullSetJSON)], ending: .hang), .networkError())
        transport.connect(context: nil, reason: .initialization)
        for count in 1...4 {
            _ = try await passReconnect(count)
        }
        #expect(await eventually { recorder.configSets.count == 2 && http.requestCount == 5 })
        let held = try #require(http.exchanges.last)
        clock.advance(by: ReconnectBackoff.provenAfter)
        held.fail(.networkConnectionLost)
        #expect(await eventually { recorder.reconnects.count == 5 })
        #expect(recorder.reconnects.map(\.attempt) == [1, 2, 3, 4, 1])
    }

    /// Connects to a server that answers `status` with `contentType` and `body`, then holds the connection open,
    /// and checks that the transport gave that answer up without counting it as open: the exchange cancelled, the
    /// first reconnect scheduled.
    /// - Returns: The transport, for the caller to close.
    private func connectToAnswerGivenUp(status: Int, contentType: String, body: String) async -> any Transport {
        http.enqueue(
            FakeHTTPClient.Response(
                parts: [
                    .head(HTTPResponseHead(statusCode: status, headers: ["Content-Type": contentType])),
                    .body(Data(body.utf8)),
                ],
                ending: .hang
            ),
            .hangingOpen
        )
        let transport = makeTransport()
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { recorder.reconnects.count == 1 })
        #expect(http.exchanges.first?.isCancelled == true)
        #expect(recorder.states.count == 1, "it never counted as open")
        #expect(recorder.reconnects.first?.delay == 1.5)
        #expect(recorder.failures.map(\.statusCode) == [status])
        return transport
    }

    /// Sends `json` as an event on `exchange` and waits until it was handed on.
    private func sendAndAwait(_ json: String, id: String? = nil, on exchange: FakeHTTPClient.Exchange) async {
        let count = recorder.configSets.count
        exchange.send(Fixtures.event(json, id: id))
        #expect(await eventually { recorder.configSets.count == count + 1 })
    }

    @Test("a stream with keep-alives every 15 s is kept for hours of clock time")
    func keepAlivesKeepTheStream() async throws {
        http.enqueue(.hangingOpen)
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        let exchange = try #require(http.exchanges.first)
        await sendAndAwait(Fixtures.fullSetJSON, on: exchange)
        for _ in 0..<(4 * 60 * 2) {
            clock.advance(by: 15)
            await sendAndAwait(Fixtures.deltaSetJSON, on: exchange)
        }
        #expect(recorder.reconnects.isEmpty)
        #expect(!exchange.isCancelled)
        #expect(http.requestCount == 1)
    }

    @Test("a stream that goes half-open after a set and two keep-alives is reconnected after 45 s, with Last-Event-ID")
    func halfOpenStream() async throws {
        http.enqueue(.hangingOpen, .hangingOpen)
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        let exchange = try #require(http.exchanges.first)
        await sendAndAwait(Fixtures.fullSetJSON, id: "7", on: exchange)
        clock.advance(by: 15)
        await sendAndAwait(Fixtures.deltaSetJSON, on: exchange)
        clock.advance(by: 15)
        await sendAndAwait(Fixtures.deltaSetJSON, on: exchange)
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: 44)
        #expect(recorder.reconnects.isEmpty && !exchange.isCancelled)
        clock.advance(by: 1)
        let reconnect = try await passReconnect(1)
        #expect(reconnect.attempt == 1)
        #expect(await eventually { http.requestCount == 2 })
        #expect(http.requests.last?.headers["Last-Event-ID"] == "7")
        #expect(logger.messages(at: .warn).isEmpty, "a lost stream is told at info level, once")
        #expect(logger.messages(at: .info).filter { $0.contains("presumed lost") }.count == 1)
    }

    // Durations are measured on the clock's monotonic time (`uptime()`): the wall clock set forward or back (an
    // NTP step, a user setting the time) moves none of them.

    @Test("a half-open stream is still presumed lost after 45 s when the wall clock jumps a day between keep-alives")
    func halfOpenStreamAcrossAWallClockJump() async throws {
        http.enqueue(.hangingOpen, .hangingOpen)
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        let exchange = try #require(http.exchanges.first)
        await sendAndAwait(Fixtures.fullSetJSON, on: exchange)
        clock.advance(by: 15)
        clock.stepWallClock(by: 86_400)
        await sendAndAwait(Fixtures.deltaSetJSON, on: exchange)
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: 44)
        #expect(recorder.reconnects.isEmpty && !exchange.isCancelled)
        clock.advance(by: 1)
        #expect(try await passReconnect(1).attempt == 1)
    }

    @Test("a stream that stalls before its headers still ends after 30 s when the wall clock steps back an hour")
    func stallAcrossAWallClockStepBack() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.stepWallClock(by: -3_600)
        clock.advance(by: 30)
        #expect(await eventually { recorder.reconnects.count == 1 })
        #expect(http.exchanges.first?.isCancelled == true)
    }

    @Test("a connection proves itself after 60 s open, however the wall clock is set meanwhile")
    func provenAcrossAWallClockStepBack() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        http.enqueue(.networkError(), .stream([Fixtures.event(Fixtures.fullSetJSON)], ending: .hang), .networkError())
        transport.connect(context: nil, reason: .initialization)
        _ = try await passReconnect(1)
        #expect(await eventually { recorder.configSets.count == 1 && http.requestCount == 2 })
        let held = try #require(http.exchanges.last)
        clock.stepWallClock(by: -3_600)
        clock.advance(by: ReconnectBackoff.provenAfter)
        held.fail(.networkConnectionLost)
        #expect(await eventually { recorder.reconnects.count == 2 })
        #expect(recorder.reconnects.map(\.attempt) == [1, 1], "the backoff started over")
    }

    @Test("a stream that delivered a set and never sends keep-alives is never cut for its silence")
    func silentAfterOneSet() async throws {
        http.enqueue(.hangingOpen)
        let transport = makeTransport()
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        let exchange = try #require(http.exchanges.first)
        await sendAndAwait(Fixtures.fullSetJSON, on: exchange)
        #expect(await eventually { clock.sleeperCount == 0 }, "no deadline is left")
        clock.advance(by: 100_000)
        // An event sent after the silence arrives on the same exchange: a cut stream would have reconnected.
        await sendAndAwait(Fixtures.deltaSetJSON, on: exchange)
        #expect(recorder.reconnects.isEmpty)
        #expect(http.requestCount == 1)
    }

    @Test(
        "a flapping stream (a set, then dropped, 30 times) backs off more and more, and logs its outage in four lines")
    func flappingStreamLogBudget() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        for _ in 1...30 { http.enqueue(.stream([Fixtures.event(Fixtures.fullSetJSON)])) }
        http.enqueue(.hangingOpen)
        transport.connect(context: nil, reason: .initialization)
        for count in 1...30 {
            _ = try await passReconnect(count)
        }
        #expect(await eventually { http.requestCount == 31 && recorder.configSets.count == 30 })
        // A connection dropped at once never proved itself: the backoff grows instead of starting over.
        #expect(recorder.reconnects.map(\.attempt) == Array(1...30))
        #expect(recorder.reconnects.last?.delay == 384, "the 30th waits 256-512 s, not 1-2 s")
        let loud = logger.entries.filter { $0.level == .warn || $0.level == .info }.map(\.message)
        #expect(loud.count == 4, "\(loud)")
        #expect(loud.filter { $0.contains("still failing after 5 attempts") }.count == 1)
        #expect(loud.last?.contains("reconnected after 5 failed attempts") == true)
    }

    @Test("a longer Retry-After on 429 and 503 wins, in seconds or as an HTTP date; other statuses ignore it")
    func retryAfter() async throws {
        let transport = makeTransport(random: { 0 })
        defer { transport.close() }
        let date = Date(timeInterval: 300, since: clock.now())
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        http.enqueue(
            .status(503, headers: ["Retry-After": "120"]),
            .status(429, headers: ["retry-after": formatter.string(from: date.addingTimeInterval(120))]),
            .status(500, headers: ["Retry-After": "90"]),
            .status(503, headers: ["Retry-After": "1"]),
            .status(429, headers: ["Retry-After": "99999"])
        )
        transport.connect(context: nil, reason: .initialization)
        var delays: [Double] = []
        for count in 1...5 {
            delays.append(try await passReconnect(count).delay)
        }
        #expect(delays[0] == 120)
        #expect(abs(delays[1] - 300) < 1.5, "the date is 300 s after the clock's time then")
        #expect(delays[2] == 4)
        #expect(delays[3] == 8)
        #expect(delays[4] == 3600)
    }

    @Test("sends Last-Event-ID only on automatic reconnects, and not when the last id was empty")
    func lastEventID() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        http.enqueue(
            .stream([Fixtures.event(Fixtures.fullSetJSON, id: "42")]),
            .stream([": nothing new\n"]),
            .stream(["id:\n: cleared\n\n"]),
            .hangingOpen
        )
        transport.connect(context: nil, reason: .initialization)
        for count in 1...3 {
            _ = try await passReconnect(count)
        }
        // Four connections opened, with a reconnect between each two.
        #expect(await eventually { recorder.states.count == 7 })
        #expect(http.requests.map { $0.headers["Last-Event-ID"] } == [nil, "42", "42", nil])
        http.enqueue(.hangingOpen)
        let outcome = await connectAndAwaitOutcome(
            transport,
            context: Fixtures.context,
            reason: .contextUpdate,
            recorder: recorder
        )
        #expect(outcome == .open)
        #expect(http.requestCount == 5)
        #expect(http.requests.last?.headers["Last-Event-ID"] == nil, "a new connect starts without it")
    }

    @Test("refuses an oversized event: logged, the connection dropped and retried with backoff")
    func oversizedEvent() async throws {
        let transport = makeTransport(maxEventSize: 256)
        defer { transport.close() }
        http.enqueue(
            .stream(["data: " + String(repeating: "x", count: 200), String(repeating: "y", count: 200)], ending: .hang)
        )
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { recorder.reconnects.count == 1 })
        #expect(recorder.reconnects.first?.attempt == 1)
        #expect(recorder.configSets.isEmpty)
        #expect(http.exchanges.first?.isCancelled == true)
        #expect(logger.mentions("larger than 256 bytes"))
    }

    @Test("skips an event that does not decode and goes on with the stream")
    func malformedEvent() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        http.enqueue(.stream(["data: {not json\n\n", Fixtures.event(Fixtures.fullSetJSON)], ending: .hang))
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { recorder.configSets.count == 1 })
        #expect(logger.messages(at: .warn).contains { $0.contains("does not decode") })
        #expect(recorder.reconnects.isEmpty)
    }

    @Test(
        "a 2xx other than 200 and 204 opens no stream: retried with backoff, its event-stream body unread",
        arguments: [201, 205, 206, 210, 299])
    func otherSuccessIsNotAStream(status: Int) async throws {
        let transport = await connectToAnswerGivenUp(
            status: status, contentType: "text/event-stream", body: Fixtures.event(Fixtures.fullSetJSON))
        defer { transport.close() }
        #expect(recorder.configSets.isEmpty, "the body was not read")
        #expect(logger.mentions("status \(status): only 200 opens a stream"))
        #expect(recorder.failures.first?.description == "status \(status): only 200 opens a stream")
    }

    @Test("treats a redirect as transient and does not follow it")
    func redirect() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        http.enqueue(.status(307, headers: ["Location": "https://elsewhere.example.com/"]))
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { recorder.reconnects.count == 1 })
        #expect(logger.mentions("redirects are not followed"))
        #expect(http.requests.allSatisfy { $0.url.host == "proxy.example.com" })
    }

    @Test("reconnects after the server closes an open stream, with backoff")
    func serverClose() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        http.enqueue(.stream([Fixtures.event(Fixtures.fullSetJSON)]), .hangingOpen)
        transport.connect(context: nil, reason: .initialization)
        let reconnect = try await passReconnect(1)
        #expect(reconnect.attempt == 1)
        #expect(await eventually { http.requestCount == 2 && recorder.states.last == .open })
        let closed = TransportFailure("the server closed the stream")
        #expect(recorder.states == [.open, .reconnecting(attempt: 1, delay: 1.5, failure: closed), .open])
    }

    @Test("disconnect stops retrying at once")
    func disconnectStopsRetrying() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        http.enqueue(.networkError())
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { recorder.reconnects.count == 1 && clock.sleeperCount == 1 })
        transport.disconnect()
        #expect(await eventually { clock.sleeperCount == 0 })
        // A retry left running would show before the next connection, which starts once the last one has ended
        // (and would take the response queued for it).
        clock.advance(by: 10_000)
        http.enqueue(.hangingOpen)
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        #expect(http.requestCount == 2)
        let lost = TransportFailure("network error: " + URLError(.networkConnectionLost).localizedDescription)
        #expect(recorder.states == [.reconnecting(attempt: 1, delay: 1.5, failure: lost), .open])
    }

    @Test("close cancels the stream, releases the HTTP layer, and a later connect does nothing")
    func closeStopsEverything() async throws {
        let transport = makeTransport()
        http.enqueue(.hangingOpen)
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        let exchange = try #require(http.exchanges.first)
        transport.close()
        #expect(await eventually { exchange.isCancelled })
        #expect(http.shutdownCount == 1)
        exchange.send(Fixtures.event(Fixtures.fullSetJSON))
        transport.connect(context: nil, reason: .initialization)
        #expect(
            logger.messages(at: .debug).contains { $0.contains("closed streaming transport") },
            "a connect after close is refused at once, starting nothing"
        )
        #expect(http.requestCount == 1)
        #expect(recorder.states == [.open])
        #expect(recorder.configSets.isEmpty)
        #expect(await eventually { clock.sleeperCount == 0 }, "the ended connection's deadline is lifted")
    }

    @Test("each connect replaces the previous connection entirely")
    func connectReplaces() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        http.enqueue(.hangingOpen, .hangingOpen)
        let firstContext = ConfigDirectorContext(id: "first")
        #expect(await connectAndAwaitOutcome(transport, context: firstContext, recorder: recorder) == .open)
        let first = try #require(http.exchanges.first)
        let secondContext = ConfigDirectorContext(id: "second")
        let outcome = await connectAndAwaitOutcome(
            transport,
            context: secondContext,
            reason: .contextUpdate,
            recorder: recorder
        )
        #expect(outcome == .open)
        #expect(first.isCancelled, "the second connection starts only once the first has ended")
        first.send(Fixtures.event(Fixtures.fullSetJSON))
        let second = try #require(http.exchanges.last)
        let body = try Fixtures.body(of: second.request)
        #expect((body["givenContext"] as? [String: Any])?["id"] as? String == "second")
        second.send(Fixtures.event(Fixtures.deltaSetJSON))
        #expect(await eventually { recorder.configSets.count == 1 })
        // The first connection had ended before the second began: nothing of it can arrive later.
        #expect(recorder.configSets.map(\.kind) == [.delta])
        #expect(recorder.states == [.open, .open])
    }

    @Test("disconnect stops a connection that has not opened yet; nothing of it is reported")
    func disconnectBeforeOpen() async throws {
        let transport = makeTransport()
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { http.requestCount == 1 })
        let exchange = try #require(http.exchanges.first)
        transport.disconnect()
        #expect(await eventually { exchange.isCancelled })
        exchange.send(.head(HTTPResponseHead(statusCode: 200)))
        // The next connection starts only once the disconnected one has ended.
        http.enqueue(.hangingOpen)
        #expect(await connectAndAwaitOutcome(transport, recorder: recorder) == .open)
        #expect(recorder.states == [.open])
        #expect(http.requestCount == 2)
    }
}
