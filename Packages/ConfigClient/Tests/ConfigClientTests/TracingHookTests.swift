#if Tracing
@_spi(Internal) @_spi(Testing) @testable import ConfigClient
import ConfigModel
import Foundation
import InMemoryTracing
import Testing
import Tracing

@Suite("TracingHook (trait Tracing)", .timeLimit(.minutes(1)))
struct TracingHookTests {
    /// A ready client of the sample set (whose `dark-mode` has the value id `on`) with `hook`.
    private func client(with hook: TracingHook) async throws -> ClientFixture {
        let fixture = try ClientFixture(hooks: [hook])
        await fixture.client.initialize(context: ConfigDirectorContext(id: "user-7"))
        return fixture
    }

    /// The events of the one span `tracer` finished.
    private func events(of tracer: InMemoryTracer) throws -> [SpanEvent] {
        let spans = tracer.finishedSpans
        try #require(spans.count == 1)
        return spans[0].events
    }

    @Test("an evaluation in a span adds feature_flag.evaluation with the key, variant, reason and provider")
    func eventOnTheCurrentSpan() async throws {
        let tracer = InMemoryTracer()
        let fixture = try await client(with: TracingHook(tracer: tracer))
        defer { fixture.client.close() }
        let isOn = tracer.withSpan("checkout") { _ in fixture.client.value(for: "dark-mode", default: false) }
        #expect(isOn)
        let event = try #require(try events(of: tracer).first)
        #expect(try events(of: tracer).count == 1)
        #expect(event.name == "feature_flag.evaluation")
        #expect(
            event.attributes
                == [
                    "feature_flag.key": "dark-mode",
                    "feature_flag.provider.name": "ConfigDirector",
                    "feature_flag.result.reason": "found_match",
                    "feature_flag.result.variant": "on",
                ])
    }

    @Test("a detail read and a typed key are recorded too, each once")
    func everyReadIsRecorded() async throws {
        let tracer = InMemoryTracer()
        let fixture = try await client(with: TracingHook(tracer: tracer, providerName: "configs"))
        defer { fixture.client.close() }
        tracer.withSpan("screen") { _ in
            _ = fixture.client.evaluation(for: "greeting", default: "none")
            _ = fixture.client.value(for: ConfigKey("max-items", default: 0))
        }
        let events = try events(of: tracer)
        #expect(events.map { $0.attributes.get("feature_flag.key") } == [.string("greeting"), .string("max-items")])
        #expect(events.allSatisfy { $0.attributes.get("feature_flag.provider.name") == .string("configs") })
    }

    @Test(
        "a reason that is an error carries error.type and no variant",
        arguments: [
            ("missing", "config_state_missing", "flag_not_found"),
            ("greeting", "invalid_boolean", "parse_error"),
            ("theme", "type_mismatch", "type_mismatch"),
        ])
    func errorReasons(key: String, reason: String, errorType: String) async throws {
        let tracer = InMemoryTracer()
        let fixture = try await client(with: TracingHook(tracer: tracer))
        defer { fixture.client.close() }
        tracer.withSpan("read") { _ in _ = fixture.client.value(for: key, default: false) }
        let attributes = try #require(try events(of: tracer).first).attributes
        #expect(attributes.get("feature_flag.result.reason") == .string(reason))
        #expect(attributes.get("error.type") == .string(errorType))
        #expect(attributes.get("feature_flag.result.variant") == nil)
    }

    @Test("every reason is recorded in lower snake case, and only the reasons that are errors with an error.type")
    func everyReason() throws {
        let tracer = InMemoryTracer()
        let hook = TracingHook(tracer: tracer)
        let hookContext = EvaluationHookContext(
            key: "k", requestedType: Bool.self, context: nil, defaultValue: ConfigEvaluationValue(false))
        tracer.withSpan("reasons") { _ in
            for reason in EvaluationReason.allCases {
                let result = ConfigEvaluation(
                    key: "k", value: ConfigEvaluationValue(false), valueID: nil, isDefaultValue: true, context: nil,
                    reason: reason)
                hook.afterEvaluation(hookContext, result: result, data: [:])
            }
        }
        let recorded = try events(of: tracer).map {
            ($0.attributes.get("feature_flag.result.reason"), $0.attributes.get("error.type"))
        }
        let expected: [(SpanAttribute, SpanAttribute?)] = EvaluationReason.allCases.map { reason in
            let errorType: String? =
                switch reason {
                case .foundMatch, .valueMissing: nil
                case .configStateMissing: "flag_not_found"
                case .clientNotReady: "provider_not_ready"
                case .typeMismatch: "type_mismatch"
                case .invalidNumber, .invalidBoolean, .invalidJSON: "parse_error"
                }
            return (.string(reason.rawValue.replacingOccurrences(of: "-", with: "_")), errorType.map { .string($0) })
        }
        try #require(recorded.count == expected.count)
        for (got, want) in zip(recorded, expected) {
            #expect(got.0 == want.0)
            #expect(got.1 == want.1)
        }
    }

    @Test("a read before any config state says provider_not_ready")
    func clientNotReady() async throws {
        let tracer = InMemoryTracer()
        let fixture = try ClientFixture(answer: .hold, hooks: [TracingHook(tracer: tracer)])
        defer { fixture.client.close() }
        tracer.withSpan("early") { _ in _ = fixture.client.value(for: "dark-mode", default: false) }
        let attributes = try #require(try events(of: tracer).first).attributes
        #expect(attributes.get("feature_flag.result.reason") == .string("client_not_ready"))
        #expect(attributes.get("error.type") == .string("provider_not_ready"))
    }

    @Test("the context's id and the value are recorded only when asked for")
    func optIns() async throws {
        let tracer = InMemoryTracer()
        let plain = try await client(with: TracingHook(tracer: tracer))
        defer { plain.client.close() }
        let optedIn = try await client(with: TracingHook(tracer: tracer, recordsContextID: true, recordsValue: true))
        defer { optedIn.client.close() }
        tracer.withSpan("plain") { _ in _ = plain.client.value(for: "greeting", default: "none") }
        tracer.withSpan("opted in") { _ in
            _ = optedIn.client.value(for: "greeting", default: "none")
            _ = optedIn.client.value(for: "dark-mode", default: false)
            _ = optedIn.client.value(for: "max-items", default: 0)
            _ = optedIn.client.value(for: "ratio", default: 0.0)
            _ = optedIn.client.value(for: "theme", as: [String: AnyCodableNumberOrText].self, default: [:])
        }
        let spans = tracer.finishedSpans
        try #require(spans.count == 2)
        let plainAttributes = try #require(spans[0].events.first).attributes
        #expect(plainAttributes.get("feature_flag.context.id") == nil)
        #expect(plainAttributes.get("feature_flag.result.value") == nil)
        let events = spans[1].events
        try #require(events.count == 5)
        #expect(events.allSatisfy { $0.attributes.get("feature_flag.context.id") == .string("user-7") })
        #expect(
            events.prefix(4).map { $0.attributes.get("feature_flag.result.value") } == [
                .string("hello"), .bool(true), .int64(20), .double(2.5),
            ])
        guard case .string(let theme) = events[4].attributes.get("feature_flag.result.value") else {
            Issue.record("the JSON value is not recorded as its description")
            return
        }
        #expect(theme.contains("#101010"))
    }

    @Test("with no span active, or the span ended, nothing is recorded and nothing throws")
    func noActiveSpan() async throws {
        let tracer = InMemoryTracer()
        let fixture = try await client(with: TracingHook(tracer: tracer))
        defer { fixture.client.close() }
        #expect(ServiceContext.current == nil)
        #expect(fixture.client.value(for: "dark-mode", default: false))
        let span = tracer.startSpan("ended")
        span.end()
        ServiceContext.withValue(span.context) {
            #expect(fixture.client.value(for: "dark-mode", default: false))
        }
        // A context of no span at all.
        ServiceContext.withValue(.topLevel) {
            #expect(fixture.client.value(for: "dark-mode", default: false))
        }
        #expect(tracer.activeSpans.isEmpty)
        #expect(tracer.finishedSpans.flatMap(\.events).isEmpty)
    }

    @Test("by default the hook asks the tracer bootstrapped in InstrumentationSystem, here none: nothing happens")
    func bootstrappedTracer() async throws {
        let fixture = try await client(with: TracingHook())
        defer { fixture.client.close() }
        let tracer = InMemoryTracer()
        tracer.withSpan("not bootstrapped") { _ in
            #expect(fixture.client.value(for: "dark-mode", default: false))
        }
        #expect(try events(of: tracer).isEmpty)
    }
}

/// A JSON value of the theme's shape, for a read that is neither a boolean, a number nor a string.
private enum AnyCodableNumberOrText: Decodable, Sendable, Equatable {
    case number(Double)
    case text(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }
}
#endif
