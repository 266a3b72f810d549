@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@_spi(Internal) @_spi(Testing) @testable import ConfigTransport

@Suite("Telemetry reporter", .timeLimit(.minutes(1)))
struct TelemetryReporterTests {
    let clock = ManualClock()
    let http = FakeHTTPClient()
    let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])

    private func makeReporter() -> TelemetryReporter {
        TelemetryReporter(configuration: Fixtures.configuration(clock: clock, logger: logger), httpClient: http)
    }

    private static let event = TelemetryEvaluationEvent(
        contextID: "user-123",
        key: "dark-mode",
        type: .boolean,
        defaultValue: .text("false"),
        requestedType: "Bool",
        evaluatedValue: .text("true"),
        evaluatedValueID: "on",
        usedDefault: false,
        reason: .foundMatch
    )

    private static func batch(context: ConfigDirectorContext? = Fixtures.context, count: Int = 42) -> TelemetryBatch {
        TelemetryBatch(
            context: context,
            evaluatedConfigs: [
                TelemetryAggregatedEvaluation(
                    startTime: Date(timeIntervalSince1970: 1_788_264_000.123),
                    endTime: Date(timeIntervalSince1970: 1_788_264_030.001),
                    count: count,
                    event: event
                )
            ],
            droppedEvaluatedConfigCount: 3
        )
    }

    @Test("posts the batch of §6 with a 5 s timeout")
    func wireForm() async throws {
        http.enqueue(.status(202))
        let reporter = makeReporter()
        defer { reporter.close() }
        #expect(await reporter.send(Self.batch()) == .delivered)
        let request = try #require(http.requests.first)
        #expect(request.url.absoluteString == "https://proxy.example.com/cd/client/telemetry/v1")
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(
            request.headers["User-Agent"]
                == "swift-client-sdk/\(ConfigDirectorSDK.version) (iOS; \(ConfigDirectorSDK.architecture))")
        #expect(request.timeout == 5)
        let body = try Fixtures.body(of: request)
        #expect(body["clientSdkKey"] as? String == Fixtures.sdkKey)
        #expect((body["metaContext"] as? [String: Any])?["sdkName"] as? String == "swift-client-sdk")
        #expect((body["context"] as? [String: Any])?["id"] as? String == "user-123")
        #expect((body["discreteEvents"] as? [String: Any])?.isEmpty == true)
        #expect((body["droppedEvents"] as? [String: Any])?["evaluatedConfig"] as? Int == 3)
        let aggregated = try #require(
            (body["aggregatedEvents"] as? [String: Any])?["evaluatedConfig"] as? [[String: Any]]
        )
        let entry = try #require(aggregated.first)
        #expect(entry["startTime"] as? String == "2026-09-01T12:00:00.123Z")
        #expect(entry["endTime"] as? String == "2026-09-01T12:00:30.001Z")
        #expect(entry["count"] as? Int == 42)
        let event = try #require(entry["event"] as? [String: Any])
        #expect(event["contextId"] as? String == "user-123")
        #expect(event["key"] as? String == "dark-mode")
        #expect(event["type"] as? String == "boolean")
        #expect((event["defaultValue"] as? [String: Any])?["value"] as? String == "false")
        #expect(event["requestedType"] as? String == "Bool")
        #expect((event["evaluatedValue"] as? [String: Any])?["value"] as? String == "true")
        #expect(event["evaluatedValueId"] as? String == "on")
        #expect(event["usedDefault"] as? Bool == false)
        #expect(event["evaluationReason"] as? String == "found-match")
    }

    @Test("omits the context, the type and the value id when there are none")
    func omissions() async throws {
        http.enqueue(.status(200))
        let reporter = makeReporter()
        defer { reporter.close() }
        var event = Self.event
        event.type = nil
        event.evaluatedValueID = nil
        event.contextID = nil
        event.reason = .configStateMissing
        let batch = TelemetryBatch(
            context: nil,
            evaluatedConfigs: [
                TelemetryAggregatedEvaluation(startTime: .distantPast, endTime: .distantPast, count: 1, event: event)
            ]
        )
        #expect(await reporter.send(batch) == .delivered)
        let body = try Fixtures.body(of: try #require(http.requests.first))
        #expect(body["context"] == nil)
        let entry = try #require(
            ((body["aggregatedEvents"] as? [String: Any])?["evaluatedConfig"] as? [[String: Any]])?.first
        )
        let wireEvent = try #require(entry["event"] as? [String: Any])
        #expect(wireEvent["type"] == nil && wireEvent["evaluatedValueId"] == nil && wireEvent["contextId"] == nil)
        #expect(wireEvent["evaluationReason"] as? String == "config-state-missing")
        #expect((body["droppedEvents"] as? [String: Any])?["evaluatedConfig"] as? Int == 0)
    }

    @Test("sends nothing for a batch without evaluations or drops, but sends drops alone")
    func emptyBatch() async throws {
        http.enqueue(.status(200))
        let reporter = makeReporter()
        defer { reporter.close() }
        #expect(await reporter.send(TelemetryBatch(context: nil, evaluatedConfigs: [])) == .delivered)
        #expect(http.requestCount == 0)
        let dropsOnly = TelemetryBatch(context: nil, evaluatedConfigs: [], droppedEvaluatedConfigCount: 9)
        #expect(await reporter.send(dropsOnly) == .delivered)
        #expect(http.requestCount == 1)
    }

    @Test("a fatal 4xx stops telemetry for good and says so to the caller", arguments: [400, 401, 403, 413])
    func fatal(status: Int) async throws {
        http.enqueue(.status(status, body: "no"))
        let reporter = makeReporter()
        defer { reporter.close() }
        let expected = ConfigDirectorError.connectionFailed(message: "no", statusCode: status)
        #expect(await reporter.send(Self.batch()) == .stopped(expected))
        #expect(reporter.isStopped)
        #expect(await reporter.send(Self.batch()) == .stopped(expected))
        #expect(http.requestCount == 1)
        #expect(logger.messages(at: .error).count == 1)
    }

    @Test("any other failure drops the batch and the next one is still sent")
    func dropped() async throws {
        http.enqueue(.status(429), .status(500), .networkError(), .status(302), .status(204))
        let reporter = makeReporter()
        defer { reporter.close() }
        for _ in 1...4 {
            #expect(await reporter.send(Self.batch()) == .dropped)
        }
        #expect(await reporter.send(Self.batch()) == .delivered)
        #expect(http.requestCount == 5)
        #expect(!reporter.isStopped)
        #expect(logger.messages(at: .warn).count == 1)
        #expect(!logger.mentions(Fixtures.sdkKey))
    }

    @Test("drops a batch that gets no answer within 5 s")
    func timeout() async throws {
        let reporter = makeReporter()
        defer { reporter.close() }
        let sending = Task { await reporter.send(Self.batch()) }
        #expect(await eventually { clock.sleeperCount == 1 })
        #expect(clock.requestedDelays == [5])
        clock.advance(by: 5)
        #expect(await sending.value == .dropped)
        #expect(http.exchanges.first?.isCancelled == true)
    }

    @Test("close cancels the batch in flight, drops later ones and releases the HTTP layer")
    func close() async throws {
        let reporter = makeReporter()
        let sending = Task { await reporter.send(Self.batch()) }
        #expect(await eventually { http.requestCount == 1 })
        reporter.close()
        #expect(await sending.value == .dropped)
        #expect(await reporter.send(Self.batch()) == .dropped)
        #expect(http.requestCount == 1)
        #expect(http.shutdownCount == 1)
    }
}
