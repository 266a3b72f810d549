import AllocCounter
import Dispatch
import Foundation
import TestSupport

/// Whether `QUICK=1` asked for the quick mode: shorter budgets and fewer repetitions.
let isQuick = ProcessInfo.processInfo.environment["QUICK"].map { $0 == "1" } ?? false

/// Monotonic time in nanoseconds.
@inline(__always)
func nowNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Keeps the optimizer from dropping a computed value.
@inline(never)
func blackHole<T>(_ value: T) { _ = value }

/// The median and the 99th percentile of a set of measurements.
struct Stats {
    var median: Double
    var p99: Double
    var count: Int

    init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        median = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        p99 = sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    }
}

/// Collects what every benchmark printed, for the PASS/MISS summary and the closing JSON line.
final class Report: Sendable {
    private struct Content {
        var figures: [(String, Double)] = []
        var verdicts: [(name: String, target: String, pass: Bool)] = []
    }

    private let content = Protected(Content())

    func figure(_ name: String, _ value: Double) {
        content.withLock { $0.figures.append((name, value)) }
    }

    /// Prints and keeps a target's verdict.
    func target(_ name: String, _ description: String, pass: Bool) {
        content.withLock { $0.verdicts.append((name, description, pass)) }
        print("  \(pass ? "PASS" : "MISS")  \(description)")
        figure("\(name).pass", pass ? 1 : 0)
    }

    /// The names of the targets missed whose name ends with `suffix`.
    func missedTargets(endingWith suffix: String) -> [String] {
        content.withLock { $0.verdicts.filter { !$0.pass && $0.name.hasSuffix(suffix) }.map(\.name) }
    }

    /// How many targets were reported whose name ends with `suffix`.
    func targetCount(endingWith suffix: String) -> Int {
        content.withLock { $0.verdicts.filter { $0.name.hasSuffix(suffix) }.count }
    }

    func printSummary() {
        let (figures, verdicts) = content.withLock { ($0.figures, $0.verdicts) }
        print("")
        print("== Summary")
        for verdict in verdicts { print("  \(verdict.pass ? "PASS" : "MISS")  \(verdict.name): \(verdict.target)") }
        let met = verdicts.filter(\.pass).count
        print("  \(met) of \(verdicts.count) targets met")
        let fields = figures.map { name, value -> String in
            let number = value.isFinite ? String(format: "%.6g", value) : "null"
            return "\"\(name)\":\(number)"
        }
        print("{\"mode\":\"\(isQuick ? "quick" : "normal")\",\(fields.joined(separator: ","))}")
    }
}

let report = Report()

/// Formats nanoseconds for people: ns, µs or ms.
func formatDuration(_ nanoseconds: Double) -> String {
    if nanoseconds < 1_000 { return String(format: "%.1f ns", nanoseconds) }
    if nanoseconds < 1_000_000 { return String(format: "%.2f µs", nanoseconds / 1_000) }
    return String(format: "%.2f ms", nanoseconds / 1_000_000)
}

/// Prints one line of a measured operation and records its figures.
func printStats(_ name: String, _ label: String, _ stats: Stats) {
    print(
        "  \(label.padding(toLength: 34, withPad: " ", startingAt: 0))"
            + " median \(formatDuration(stats.median).padding(toLength: 11, withPad: " ", startingAt: 0))"
            + " p99 \(formatDuration(stats.p99).padding(toLength: 11, withPad: " ", startingAt: 0))"
            + " (\(stats.count) samples)"
    )
    report.figure("\(name).median_ns", stats.median)
    report.figure("\(name).p99_ns", stats.p99)
}

/// Runs a baseline and a subject side by side, alternating samples, until both medians are stable
/// (within 2% between checks) or the time budget runs out. Each sample times `operations` calls and
/// yields the time of one call.
func compare(
    operations: Int,
    budgetSeconds: Double,
    minimumSamples: Int = 20,
    baseline: () -> Void,
    subject: () -> Void
) -> (baseline: Stats, subject: Stats) {
    func sample(_ body: () -> Void) -> Double {
        let start = nowNanoseconds()
        for _ in 0..<operations { body() }
        return Double(nowNanoseconds() - start) / Double(operations)
    }
    // Warm up both.
    _ = sample(baseline)
    _ = sample(subject)
    var baselineSamples: [Double] = []
    var subjectSamples: [Double] = []
    var previous: (Double, Double)?
    let deadline = nowNanoseconds() + UInt64(budgetSeconds * 1e9)
    while true {
        for _ in 0..<10 {
            baselineSamples.append(sample(baseline))
            subjectSamples.append(sample(subject))
        }
        let current = (Stats(baselineSamples).median, Stats(subjectSamples).median)
        if baselineSamples.count >= minimumSamples, let previous,
            abs(current.0 / previous.0 - 1) < 0.02, abs(current.1 / previous.1 - 1) < 0.02
        {
            break
        }
        if nowNanoseconds() > deadline { break }
        previous = current
    }
    return (Stats(baselineSamples), Stats(subjectSamples))
}

/// The async form of ``compare``, one call per sample.
func compareAsync(
    budgetSeconds: Double,
    minimumSamples: Int = 20,
    maximumSamples: Int = 10_000,
    baseline: () async -> Void,
    subject: () async -> Void
) async -> (baseline: Stats, subject: Stats) {
    func sample(_ body: () async -> Void) async -> Double {
        let start = nowNanoseconds()
        await body()
        return Double(nowNanoseconds() - start)
    }
    await baseline()
    await subject()
    var baselineSamples: [Double] = []
    var subjectSamples: [Double] = []
    var previous: (Double, Double)?
    let deadline = nowNanoseconds() + UInt64(budgetSeconds * 1e9)
    while true {
        for _ in 0..<10 {
            baselineSamples.append(await sample(baseline))
            subjectSamples.append(await sample(subject))
        }
        let current = (Stats(baselineSamples).median, Stats(subjectSamples).median)
        if baselineSamples.count >= minimumSamples, let previous,
            abs(current.0 / previous.0 - 1) < 0.02, abs(current.1 / previous.1 - 1) < 0.02
        {
            break
        }
        if nowNanoseconds() > deadline || baselineSamples.count >= maximumSamples { break }
        previous = current
    }
    return (Stats(baselineSamples), Stats(subjectSamples))
}

/// Prints a comparison and its ratio subject/baseline at the median.
@discardableResult
func printComparison(_ name: String, baseline: (String, Stats), subject: (String, Stats)) -> Double {
    printStats("\(name).baseline", "baseline: \(baseline.0)", baseline.1)
    printStats("\(name).subject", "subject:  \(subject.0)", subject.1)
    let ratio = subject.1.median / baseline.1.median
    print(String(format: "  ratio subject/baseline (median): %.2f×", ratio))
    report.figure("\(name).ratio", ratio)
    return ratio
}

/// Heap allocations made by `body`.
func allocations(during body: () -> Void) -> UInt64 {
    let before = alloc_counter_allocations()
    body()
    return alloc_counter_allocations() - before
}

var allocationCountingWorks: Bool { alloc_counter_is_active() != 0 }

/// How the allocation counts printed were made, for their lines.
var allocationCountingLabel: String { allocationCountingWorks ? "malloc interposed" : "counting unavailable" }

/// Runs `operation` 100,000 times, prints its heap allocations per run as "allocations per `what`", records them as
/// the figure `<name>.allocations_per_op`, and returns them.
@discardableResult
func printAllocationsPerOperation(_ name: String, per what: String, _ operation: () -> Void) -> Double {
    let count = 100_000
    let perOperation = Double(allocations { for _ in 0..<count { operation() } }) / Double(count)
    print(String(format: "  allocations per %@: %.3f (%@)", what, perOperation, allocationCountingLabel))
    report.figure("\(name).allocations_per_op", perOperation)
    return perOperation
}

/// Reports the target that an operation in its steady state allocates nothing: met only when allocations
/// are counted and fewer than one in a thousand operations allocates.
/// - Parameters:
///   - name: The target's name.
///   - operation: What one operation is, for the target's description.
///   - perOperation: The allocations counted per operation.
func reportNoAllocationTarget(_ name: String, per operation: String, _ perOperation: Double) {
    report.target(
        name, "no heap allocation per \(operation) (steady state)",
        pass: allocationCountingWorks && perOperation < 0.001)
}

func megabytes(_ bytes: Int64) -> String { String(format: "%.2f MB", Double(bytes) / 1_048_576) }
