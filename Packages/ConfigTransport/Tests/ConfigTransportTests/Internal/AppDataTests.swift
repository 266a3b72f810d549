@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Requests built from app data of any depth", .timeLimit(.minutes(1)))
struct AppDataTests {
    let clock = ManualClock()
    let http = FakeHTTPClient()
    let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
    let recorder = TransportEventRecorder()

    /// A context whose trait `deep` nests `depth` dictionaries deep.
    private static func context(nestedTraits depth: Int) -> ConfigDirectorContext {
        var value: ConfigDirectorContext.TraitValue = "leaf"
        for _ in 0..<depth { value = ["x": value] }
        return ConfigDirectorContext(id: "deep-user", traits: ["deep": value])
    }

    private func makeTransport(_ mode: HTTPTransportFactory.Mode) -> any Transport {
        Fixtures.makeTransport(
            mode,
            configuration: Fixtures.configuration(clock: clock, logger: logger),
            http: http,
            recorder: recorder
        )
    }

    @Test("measure the nesting of a trait value of any depth without recursion")
    func depthCheck() {
        #expect(!ConfigDirectorContext.TraitValue.string("a").nests(deeperThan: 0))
        #expect(ConfigDirectorContext.TraitValue.array([1]).nests(deeperThan: 0))
        #expect(!ConfigDirectorContext.TraitValue.array([1]).nests(deeperThan: 1))
        #expect(Self.context(nestedTraits: ConfigDirectorContext.maximumTraitDepth).hasSendableTraitDepth)
        #expect(!Self.context(nestedTraits: ConfigDirectorContext.maximumTraitDepth + 1).hasSendableTraitDepth)
        #expect(!Self.context(nestedTraits: 10_000).hasSendableTraitDepth)
        #expect(ConfigDirectorContext(id: "u").hasSendableTraitDepth)
    }

    @Test(
        "send a context nested far past the limit as no context, with one error and neither key nor body in the log",
        .timeLimit(.minutes(1)),
        arguments: [HTTPTransportFactory.Mode.streaming, .polling]
    )
    func deepContextIsSentAsNone(mode: HTTPTransportFactory.Mode) async throws {
        // 5,000 levels crashed the request encoder (its recursion overflowed a worker thread's stack).
        let deep = Self.context(nestedTraits: 10_000)
        let answer: FakeHTTPClient.Response =
            mode == .streaming ? .hangingOpen : .status(200, body: Fixtures.fullSetJSON)
        http.enqueue(answer)
        http.enqueue(answer)
        let transport = makeTransport(mode)
        defer { transport.close() }
        #expect(await connectAndAwaitOutcome(transport, context: deep, recorder: recorder) != nil)
        #expect(await connectAndAwaitOutcome(transport, context: deep, recorder: recorder) != nil)
        let requests = http.requests
        #expect(requests.count >= 2)
        for request in requests {
            let body = try Fixtures.body(of: request)
            #expect((body["givenContext"] as? [String: Any])?.isEmpty == true)
        }
        let errors = logger.messages(at: .error)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("nest deeper than \(ConfigDirectorContext.maximumTraitDepth) levels") == true)
        #expect(!logger.mentions(Fixtures.sdkKey))
        #expect(!logger.mentions("clientSdkKey"))
    }

    @Test("send a context nested up to the limit as it is")
    func contextAtTheLimitIsSent() async throws {
        http.enqueue(.hangingOpen)
        let transport = makeTransport(.streaming)
        defer { transport.close() }
        let context = Self.context(nestedTraits: ConfigDirectorContext.maximumTraitDepth)
        #expect(await connectAndAwaitOutcome(transport, context: context, recorder: recorder) == .open)
        let body = try Fixtures.body(of: try #require(http.requests.first))
        #expect((body["givenContext"] as? [String: Any])?["id"] as? String == "deep-user")
        #expect(logger.messages(at: .error).isEmpty)
    }

    @Test("send a telemetry batch of a context nested far past the limit without its context, logging once")
    func deepTelemetryContext() async throws {
        http.enqueue(.status(202))
        http.enqueue(.status(202))
        let reporter = TelemetryReporter(
            configuration: Fixtures.configuration(clock: clock, logger: logger),
            httpClient: http
        )
        defer { reporter.close() }
        let event = TelemetryEvaluationEvent(
            contextID: "deep-user", key: "k", type: .boolean, defaultValue: .text("false"), requestedType: "Bool",
            evaluatedValue: .text("true"), evaluatedValueID: "on", usedDefault: false, reason: .foundMatch
        )
        let batch = TelemetryBatch(
            context: Self.context(nestedTraits: 10_000),
            evaluatedConfigs: [
                TelemetryAggregatedEvaluation(startTime: Date(), endTime: Date(), count: 1, event: event)
            ]
        )
        #expect(await reporter.send(batch) == .delivered)
        #expect(await reporter.send(batch) == .delivered)
        for request in http.requests {
            #expect(try Fixtures.body(of: request)["context"] == nil)
        }
        #expect(logger.messages(at: .error).count == 1)
        #expect(!logger.mentions(Fixtures.sdkKey))
    }
}
