#if Tracing
@_spi(Internal) @_spi(Testing) import ConfigClient
import Tracing

/// 17. The tracing hook (trait `Tracing`): an evaluation with `TracingHook` and no span active against
/// one with a registered hook that does nothing (benchmark 1's subject both times, value ids sent); then,
/// printed with no target, the same with a `ServiceContext` current that identifies no span, with the hook
/// looking the tracer up at each evaluation and with the tracer given.
func benchmarkTracingHook() async {
    print("\n== 17. Tracing hook: TracingHook with no span active against one no-op hook, 1,000 configs, telemetry on")
    let set = booleanSet(count: 1_000, valueIDs: true)
    let noOp = await ServedClient.make(initial: set, telemetry: true, hooks: [NoOpHook()])
    let tracing = await ServedClient.make(initial: set, telemetry: true, hooks: [TracingHook()])
    let given = await ServedClient.make(
        initial: set, telemetry: true, hooks: [TracingHook(tracer: InstrumentationSystem.tracer)])
    let key = flagKey(500)

    let (noOpRead, tracingRead) = compare(
        operations: 20_000,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: { blackHole(noOp.client.value(for: key, default: false)) },
        subject: { blackHole(tracing.client.value(for: key, default: false)) }
    )
    let ratio = printComparison(
        "tracing_hook",
        baseline: ("a no-op hook", noOpRead),
        subject: ("TracingHook, no span", tracingRead)
    )
    report.target("tracing_hook", "TracingHook with no span active within 10% of a no-op hook", pass: ratio <= 1.1)

    // A server framework makes a context current for every request: the hook then asks the tracer
    // (here InstrumentationSystem's, none bootstrapped: the no-op tracer) for its span.
    for (name, label, served) in [
        ("tracing_hook_context", "TracingHook, context", tracing),
        ("tracing_hook_context_tracer_given", "given tracer, context", given),
    ] {
        let (noOpInContext, tracingInContext) = ServiceContext.withValue(.topLevel) {
            compare(
                operations: 20_000,
                budgetSeconds: isQuick ? 2 : 8,
                baseline: { blackHole(noOp.client.value(for: key, default: false)) },
                subject: { blackHole(served.client.value(for: key, default: false)) }
            )
        }
        _ = printComparison(
            name, baseline: ("a no-op hook, context", noOpInContext), subject: (label, tracingInContext))
    }
    for served in [noOp, tracing, given] { served.client.close() }
}
#endif
