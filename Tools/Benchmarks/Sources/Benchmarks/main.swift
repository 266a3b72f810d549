import AllocCounter
import Foundation

// The benchmarks of issue 9; `make bench` (or `make bench QUICK=1`) runs them in release mode.
let started = nowNanoseconds()
print("ConfigDirector SDK benchmarks (\(isQuick ? "quick" : "normal") mode, \(ProcessInfo.processInfo.activeProcessorCount) cores)")
print("allocation counting: \(allocationCountingWorks ? "malloc interposed" : "unavailable on this platform")")

await benchmarkEvaluation()
await benchmarkContention()
benchmarkDecodeAndApply()
await benchmarkWatchFanOut()
await benchmarkPropagation()
await benchmarkTelemetry()
await benchmarkColdStart()
await benchmarkIdle()

print(String(format: "\nran in %.1f s", Double(nowNanoseconds() - started) / 1e9))
report.figure("total_seconds", Double(nowNanoseconds() - started) / 1e9)
report.printSummary()
