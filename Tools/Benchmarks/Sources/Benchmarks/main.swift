import AllocCounter
import Foundation

// The benchmarks of issue 9; `make bench` (or `make bench QUICK=1`) runs them in release mode.
let started = nowNanoseconds()
print(
    "ConfigDirector SDK benchmarks (\(isQuick ? "quick" : "normal") mode, \(ProcessInfo.processInfo.activeProcessorCount) cores)"
)
print("allocation counting: \(allocationCountingWorks ? "malloc interposed" : "unavailable on this platform")")

// `BENCH=1,6` runs only those benchmarks, for profiling one at a time.
let selected = Set((ProcessInfo.processInfo.environment["BENCH"] ?? "").split(separator: ",").compactMap { Int($0) })
func runs(_ number: Int) -> Bool { selected.isEmpty || selected.contains(number) }

if runs(1) { await benchmarkEvaluation() }
if runs(2) { await benchmarkContention() }
if runs(3) { await benchmarkDecodeAndApply() }
if runs(4) { await benchmarkWatchFanOut() }
if runs(5) { await benchmarkPropagation() }
if runs(6) { await benchmarkTelemetry() }
if runs(7) { await benchmarkColdStart() }
if runs(8) { await benchmarkIdle() }
if runs(9) { await benchmarkTypedKeysAndHooks() }
if runs(10) { await benchmarkStreamParsing() }
if runs(11) { await benchmarkStalls() }
if runs(12) { await benchmarkJSONRead() }
if runs(13) { await benchmarkKeeping() }
#if os(Linux)
if runs(14) { await benchmarkCommentFlood() }
if runs(15) { await benchmarkReleaseConnected() }
#endif
if runs(16) { benchmarkFleetSimulation() }
#if Tracing
if runs(17) { await benchmarkTracingHook() }
#endif

print(String(format: "\nran in %.1f s", Double(nowNanoseconds() - started) / 1e9))
report.figure("total_seconds", Double(nowNanoseconds() - started) / 1e9)
report.printSummary()

// `GATE=allocations` (`make check-allocations`, a step of CI) fails the run when an allocation target was missed:
// allocation counts are deterministic, timings are not, so only the allocation targets gate.
if ProcessInfo.processInfo.environment["GATE"] == "allocations" {
    let missed = report.missedTargets(endingWith: ".allocations")
    let gated = report.targetCount(endingWith: ".allocations")
    guard gated > 0, missed.isEmpty else {
        print("allocation gate: FAILED: \(gated == 0 ? "no allocation target ran" : missed.joined(separator: ", "))")
        exit(1)
    }
    print("allocation gate: the \(gated) allocation targets are met")
}
