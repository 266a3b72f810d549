import AllocCounter
@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
@_spi(Internal) import ConfigTransport
import Foundation
import TestSupport

/// 1. `value(for:default:)` of a boolean on a ready client of 1,000 configs, telemetry on, against a
/// `[String: String]` lookup under an uncontended lock plus the boolean parse; then the same read on a client with
/// local overrides on and 100 keys overridden (not the one read), against the first client.
func benchmarkEvaluation() async {
    print("\n== 1. Evaluation: value(for:default:) of a boolean, 1,000 configs, telemetry on")
    let set = booleanSet(count: 1_000)
    let served = await ServedClient.make(initial: set, telemetry: true)
    let client = served.client
    let dictionary = Protected(
        Dictionary(uniqueKeysWithValues: set.configs.map { ($0.key.name, $0.value.value ?? "") }))
    let key = flagKey(500)

    let (baseline, subject) = compare(
        operations: 20_000,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: { blackHole(dictionary.withLock { $0[key] }.flatMap(parseBoolean) ?? false) },
        subject: { blackHole(client.value(for: key, default: false)) }
    )
    let ratio = printComparison(
        "evaluation",
        baseline: ("locked [String: String] + parse", baseline),
        subject: ("client.value(for:default:)", subject)
    )
    let count = 100_000
    let subjectAllocations = allocations { for _ in 0..<count { blackHole(client.value(for: key, default: false)) } }
    let baselineAllocations = allocations {
        for _ in 0..<count { blackHole(dictionary.withLock { $0[key] }.flatMap(parseBoolean) ?? false) }
    }
    let perEvaluation = Double(subjectAllocations) / Double(count)
    print(
        String(
            format: "  allocations per evaluation: subject %.3f, baseline %.3f (%@)",
            perEvaluation,
            Double(baselineAllocations) / Double(count),
            allocationCountingLabel
        )
    )
    report.figure("evaluation.allocations_per_op", perEvaluation)
    report.figure("evaluation.baseline_allocations_per_op", Double(baselineAllocations) / Double(count))
    report.target("evaluation", "subject ≤ 2.5× baseline at the median", pass: ratio <= 2.5)
    reportNoAllocationTarget("evaluation.allocations", per: "evaluation", perEvaluation)
    await compareWithOverrides(served: client, set: set, key: key)
    client.close()
}

/// Benchmark 1's read on a client with local overrides on and 100 keys overridden, none of them `key`, against the
/// same read on `served`, a client without overrides.
private func compareWithOverrides(served client: ConfigDirectorClient, set: ConfigSet, key: String) async {
    let overriding = await ServedClient.make(initial: set, telemetry: true, overrides: .enabled)
    for index in 0..<100 { overriding.client.setOverride(true, for: flagKey(index)) }
    let (baseline, subject) = compare(
        operations: 20_000,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: { blackHole(client.value(for: key, default: false)) },
        subject: { blackHole(overriding.client.value(for: key, default: false)) }
    )
    let ratio = printComparison(
        "evaluation.overrides",
        baseline: ("overrides off", baseline),
        subject: ("overrides on, 100 keys overridden, key read not", subject)
    )
    report.target("evaluation.overrides", "a key not overridden ≤ 1.05× overrides off", pass: ratio <= 1.05)
    overriding.client.close()
}

/// 6. Telemetry: 10 million evaluations over 1,000 keys: memory growth, one batch per flush, and the
/// cost of an evaluation with telemetry on against off.
func benchmarkTelemetry() async {
    let evaluationCount = isQuick ? 2_000_000 : 10_000_000
    print("\n== 6. Telemetry: \(evaluationCount / 1_000_000) million evaluations over 1,000 keys")
    let set = booleanSet(count: 1_000)
    let on = await ServedClient.make(initial: set, telemetry: true)
    let off = await ServedClient.make(initial: set, telemetry: false)
    let keys = (0..<1_000).map(flagKey)

    // Every key once, so that every aggregate exists; then the growth of the steady state.
    for key in keys { blackHole(on.client.value(for: key, default: false)) }
    let liveBefore = alloc_counter_live_bytes()
    let started = nowNanoseconds()
    var index = 0
    for _ in 0..<evaluationCount {
        blackHole(on.client.value(for: keys[index], default: false))
        index = index == 999 ? 0 : index + 1
    }
    let elapsed = Double(nowNanoseconds() - started)
    let growth = alloc_counter_live_bytes() - liveBefore
    print(
        "  \(evaluationCount) evaluations in \(formatDuration(elapsed)): \(formatDuration(elapsed / Double(evaluationCount))) each"
    )
    print("  heap growth over the run: \(megabytes(growth))")
    report.figure("telemetry.evaluations", Double(evaluationCount))
    report.figure("telemetry.growth_bytes", Double(growth))
    report.figure("telemetry.mean_ns", elapsed / Double(evaluationCount))

    on.lifecycle.send(.didEnterBackground)
    for _ in 0..<500 where on.sink.batches.isEmpty { try? await Task.sleep(nanoseconds: 2_000_000) }
    try? await Task.sleep(nanoseconds: 50_000_000)
    let batches = on.sink.batches
    let aggregated = batches.first?.evaluatedConfigs ?? []
    let total = aggregated.reduce(0) { $0 + $1.count }
    print(
        "  flush: \(batches.count) batch(es), \(aggregated.count) aggregated evaluations counting \(total)"
            + " evaluations, \(batches.first?.droppedEvaluatedConfigCount ?? -1) dropped"
    )
    report.figure("telemetry.batches_per_flush", Double(batches.count))
    report.figure("telemetry.aggregates", Double(aggregated.count))

    let key = flagKey(500)
    let (baseline, subject) = compare(
        operations: 20_000,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: { blackHole(off.client.value(for: key, default: false)) },
        subject: { blackHole(on.client.value(for: key, default: false)) }
    )
    let ratio = printComparison(
        "telemetry.cost",
        baseline: ("evaluation, telemetry off", baseline),
        subject: ("evaluation, telemetry on", subject)
    )
    report.target("telemetry.memory", "memory growth under 5 MB", pass: growth < 5 * 1_048_576)
    report.target(
        "telemetry.batch",
        "one aggregated batch per flush",
        pass: batches.count == 1 && aggregated.count == 1_000 && total == evaluationCount + 1_000
    )
    report.target("telemetry.cost", "telemetry on within 20% of off", pass: ratio <= 1.2)
    on.client.close()
    off.client.close()
}

/// 2. Two threads evaluating while deltas arrive 100 times a second, against one thread.
func benchmarkContention() async {
    print("\n== 2. Evaluation under contention: 2 threads, deltas 100 times a second")
    let set = booleanSet(count: 1_000)
    let served = await ServedClient.make(initial: set, telemetry: true)
    let client = served.client
    let keys = (0..<1_000).map(flagKey)
    for key in keys { blackHole(client.value(for: key, default: false)) }

    let deltas = [
        ConfigSet(
            kind: .delta, configs: [ExactKey(flagKey(7)): ConfigState(key: flagKey(7), type: .boolean, value: "true")]),
        ConfigSet(
            kind: .delta, configs: [ExactKey(flagKey(7)): ConfigState(key: flagKey(7), type: .boolean, value: "false")]),
    ]
    let stopDeltas = Protected(false)
    let deltaThread = Thread {
        var index = 0
        while !stopDeltas.withLock({ $0 }) {
            served.server.serve(deltas[index & 1])
            index += 1
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
    deltaThread.start()

    let seconds = isQuick ? 0.25 : 1.0
    func run(threads: Int) -> Double {
        let group = DispatchGroup()
        let counts = Protected([Int](repeating: 0, count: threads))
        let deadline = nowNanoseconds() + UInt64(seconds * 1e9)
        for thread in 0..<threads {
            group.enter()
            let worker = Thread {
                var operations = 0
                var index = thread * 500
                while true {
                    for _ in 0..<256 {
                        blackHole(client.value(for: keys[index], default: false))
                        index = index == 999 ? 0 : index + 1
                    }
                    operations += 256
                    if nowNanoseconds() >= deadline { break }
                }
                counts.withLock { $0[thread] = operations }
                group.leave()
            }
            worker.start()
        }
        group.wait()
        return Double(counts.withLock { $0.reduce(0, +) }) / seconds
    }
    var one: [Double] = []
    var two: [Double] = []
    for _ in 0..<(isQuick ? 3 : 7) {
        one.append(run(threads: 1))
        two.append(run(threads: 2))
    }
    stopDeltas.withLock { $0 = true }
    let oneMedian = Stats(one).median
    let twoMedian = Stats(two).median
    let ratio = twoMedian / oneMedian
    print(
        String(
            format: "  baseline: 1 thread   median %.2f M evaluations/s (%d runs of %.2f s)", oneMedian / 1e6,
            one.count, seconds))
    print(String(format: "  subject:  2 threads  median %.2f M evaluations/s", twoMedian / 1e6))
    print(String(format: "  ratio subject/baseline (median): %.2f×", ratio))
    report.figure("contention.one_thread_ops_per_s", oneMedian)
    report.figure("contention.two_threads_ops_per_s", twoMedian)
    report.figure("contention.ratio", ratio)
    report.target("contention", "2 threads ≥ 1.6× the throughput of 1", pass: ratio >= 1.6)
    client.close()
}
