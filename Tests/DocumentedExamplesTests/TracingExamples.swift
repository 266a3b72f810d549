#if Tracing
import ConfigDirector
import InMemoryTracing
import Testing
import Tracing

// README "Tracing evaluations (trait Tracing)" and the ConfigClient DocC page, verbatim, in a function so that
// it compiles as written. Its client would reach ConfigDirector's service, so it is compiled and not run; the
// same hook runs below on an offline client, with a tracer of the tests' own (none is bootstrapped here).
private func tracingExample() throws -> () -> Void {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(hooks: [TracingHook()])
    )

    func checkout() {
        withSpan("checkout") { _ in
            if client.value(for: "new-checkout", default: false) {
                // the span "checkout" now has the event feature_flag.evaluation of new-checkout
            }
        }
    }
    return checkout
}

@Suite("Examples of the trait Tracing", .timeLimit(.minutes(1)))
struct TracingExamples {
    @Test("the tracing hook records the evaluation on the span around it")
    func tracingHook() async throws {
        let tracer = InMemoryTracer()
        let client = try ConfigDirectorClient(
            options: ConfigDirectorClientOptions(
                connection: ConnectionOptions(mode: .offline),
                values: ["new-checkout": true],
                hooks: [TracingHook(tracer: tracer)]
            )
        )
        defer { client.close() }
        await client.initialize()
        let isOn = tracer.withSpan("checkout") { _ in client.value(for: "new-checkout", default: false) }
        #expect(isOn)
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "checkout")
        #expect(span.events.map(\.name) == ["feature_flag.evaluation"])
        #expect(span.events.first?.attributes.get("feature_flag.key") == .string("new-checkout"))
        #expect(span.events.first?.attributes.get("feature_flag.result.reason") == .string("found_match"))
        _ = tracingExample
    }
}
#endif
