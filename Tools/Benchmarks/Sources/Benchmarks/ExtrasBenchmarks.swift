@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import Foundation

extension ConfigKeys {
    /// Benchmark 1's key, as a typed key.
    fileprivate static let benchmarkFlag = ConfigKey(flagKey(500), default: false)
}

/// 9. Typed keys, detail reads and hooks: a typed-key read and a detail read against `value(for:default:)`,
/// and an evaluation with one no-op hook against one with none (benchmark 1's subject each time); then a
/// detail read of a `String` against its plain read.
func benchmarkTypedKeysAndHooks() async {
    print("\n== 9. Typed keys and hooks: value(for: .key) and one no-op hook, 1,000 configs, telemetry on")
    let set = booleanSet(count: 1_000)
    let plain = await ServedClient.make(initial: set, telemetry: true)
    let hooked = await ServedClient.make(initial: set, telemetry: true, hooks: [NoOpHook()])
    let key = flagKey(500)

    let (plainRead, typedRead) = compare(
        operations: 20_000,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: { blackHole(plain.client.value(for: key, default: false)) },
        subject: { blackHole(plain.client.value(for: .benchmarkFlag)) }
    )
    let typedRatio = printComparison(
        "typed_key",
        baseline: ("client.value(for:default:)", plainRead),
        subject: ("client.value(for: .key)", typedRead)
    )
    let typedAllocations = printAllocationsPerOperation("typed_key", per: "typed-key read") {
        blackHole(plain.client.value(for: .benchmarkFlag))
    }
    report.target("typed_key", "a typed-key read within 10% of value(for:default:)", pass: typedRatio <= 1.1)
    reportNoAllocationTarget("typed_key.allocations", per: "typed-key read", typedAllocations)

    // The service sends a value id with each value; without one, an evaluation that is published or
    // handed to a hook hashes the value for it (SHA-256), which the second figure shows.
    let withValueIDs = booleanSet(count: 1_000, valueIDs: true)
    let plainWithIDs = await ServedClient.make(initial: withValueIDs, telemetry: true)
    let hookedWithIDs = await ServedClient.make(initial: withValueIDs, telemetry: true, hooks: [NoOpHook()])
    benchmarkDetailRead("detail_read", "value ids sent", on: plainWithIDs, key: key, default: false, targets: .all)
    benchmarkDetailRead("detail_read_hashing", "no value ids", on: plain, key: key, default: false, targets: .none)
    let strings = await ServedClient.make(initial: stringSet(count: 1_000), telemetry: true)
    benchmarkDetailRead(
        "detail_read_string", "String, value ids sent", on: strings, key: key, default: "", targets: .allocations)
    compareHook("hook", "value ids sent", plain: plainWithIDs, hooked: hookedWithIDs, key: key)
    compareHook("hook_hashing", "no value ids", plain: plain, hooked: hooked, key: key)
    for served in [plain, hooked, plainWithIDs, hookedWithIDs, strings] { served.client.close() }
}

/// Which figures of a detail read are targets; the others are printed with none.
private enum DetailReadTargets {
    /// The ratio to a plain read and the allocations (a Bool, value ids sent).
    case all
    /// The allocations alone (a String: its ratio is printed for comparison).
    case allocations
    /// None (without value ids, the first read of each revision on a stripe hashes the value).
    case none
}

/// A detail read (`evaluation(for:default:)`: the value and its `ConfigEvaluation`) against
/// `value(for:default:)`, of `defaultValue`'s type.
private func benchmarkDetailRead<Value: ConfigValue>(
    _ name: String,
    _ label: String,
    on served: ServedClient,
    key: String,
    default defaultValue: Value,
    targets: DetailReadTargets
) {
    let (plainRead, detailRead) = compare(
        operations: 20_000,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: { blackHole(served.client.value(for: key, default: defaultValue)) },
        subject: { blackHole(served.client.evaluation(for: key, default: defaultValue)) }
    )
    let ratio = printComparison(
        name,
        baseline: ("client.value(for:default:) (\(label))", plainRead),
        subject: ("client.evaluation(for:default:)", detailRead)
    )
    let perRead = printAllocationsPerOperation(name, per: "detail read (\(label))") {
        blackHole(served.client.evaluation(for: key, default: defaultValue))
    }
    if targets == .all {
        report.target(name, "a detail read within 10% of value(for:default:)", pass: ratio <= 1.1)
    }
    if targets != .none {
        reportNoAllocationTarget("\(name).allocations", per: "detail read (\(label))", perRead)
    }
}

/// Benchmark 1's evaluation on `hooked`, a client with one no-op hook, against the same on `plain`.
private func compareHook(_ name: String, _ label: String, plain: ServedClient, hooked: ServedClient, key: String) {
    let (noHook, oneHook) = compare(
        operations: 20_000,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: { blackHole(plain.client.value(for: key, default: false)) },
        subject: { blackHole(hooked.client.value(for: key, default: false)) }
    )
    _ = printComparison(name, baseline: ("no hook (\(label))", noHook), subject: ("one no-op hook", oneHook))
    let count = 100_000
    let hookAllocations = allocations {
        for _ in 0..<count { blackHole(hooked.client.value(for: key, default: false)) }
    }
    let perEvaluation = Double(hookAllocations) / Double(count)
    print(String(format: "  allocations per evaluation with one hook (\(label)): %.3f (no target)", perEvaluation))
    report.figure("\(name).allocations_per_op", perEvaluation)
}
