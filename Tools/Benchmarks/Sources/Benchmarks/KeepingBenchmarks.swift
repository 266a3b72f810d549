import AllocCounter
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Testing) import ConfigTesting
import Foundation
import ModelTestSupport
import TestSupport

/// 13. Keeping large sets on the device (issue 25): what the kept values cost a client whose set is large, in
/// CPU and in peak memory, against the same client with caching off.
func benchmarkKeeping() async {
    print("\n== 13. Keeping large sets on the device (a delta every 100 ms)")
    let seconds = isQuick ? 3.0 : 10.0
    await measureKeeping(
        "keep.refused",
        "100,000 configs, refused for size (1 MB file limit)",
        count: 100_000,
        sizeLimit: FileCachingProvider.defaultSizeLimit,
        seconds: seconds
    )
    await measureKeeping(
        "keep.churn",
        "50,000 configs kept (64 MB file limit)",
        count: 50_000,
        sizeLimit: 64 * 1_048_576,
        seconds: seconds
    )
    await measureWritePeak(count: 50_000)
}

/// The peak heap of one write of a kept set, beyond the set itself, against the size of the entry written.
private func measureWritePeak(count: Int) async {
    let set = try! ConfigSet(jsonBytes: Data(fullSetPayload(count: count).utf8))!
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cd-bench-keep-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let provider = FileCachingProvider(clientSDKKey: "bench-key", directory: directory, sizeLimit: 64 * 1_048_576)
    let store = KeptValuesStore(
        clientSDKKey: "bench-key", options: CachingOptions(provider: provider), logger: SilentLogger())
    store.save(set, for: ConfigDirectorContext(id: "user-1"))
    let heapBefore = alloc_counter_live_bytes()
    alloc_counter_reset_peak()
    await store.flush()
    let peak = alloc_counter_peak_bytes() - heapBefore
    let entryBytes = (try? provider.read())?.utf8.count ?? 0
    let ratio = Double(peak) / Double(max(entryBytes, 1))
    print(
        "  one write of \(count) configs: peak heap +\(megabytes(peak)) for an entry of \(megabytes(Int64(entryBytes)))"
            + " (\(String(format: "%.2f", ratio))× the entry)"
    )
    report.figure("keep.write_peak_ratio", ratio)
    report.target(
        "keep.write_peak", "the peak memory of a write within 2× the entry's size",
        pass: allocationCountingWorks && ratio <= 2)
    await store.close()
}

/// What one run of a churning client cost.
private struct KeepingCost {
    var cpuShare: Double
    var peakRSSBytes: Int64
    var peakHeapBytes: Int64
    var writes: Int
}

/// Runs the churn with caching off, then on, and prints what keeping added.
private func measureKeeping(_ name: String, _ label: String, count: Int, sizeLimit: Int, seconds: Double) async {
    print("  \(label), \(Int(seconds)) s of churn:")
    let set = try! ConfigSet(jsonBytes: Data(fullSetPayload(count: count).utf8))!
    let off = await churn(set, keeping: nil, seconds: seconds)
    let on = await churn(set, keeping: sizeLimit, seconds: seconds)
    for (side, cost) in [("caching off", off), ("caching on ", on)] {
        print(
            "    \(side): CPU \(String(format: "%5.1f", cost.cpuShare * 100))% of a core, peak RSS +\(megabytes(cost.peakRSSBytes)),"
                + " peak heap +\(megabytes(cost.peakHeapBytes)), \(cost.writes) writes"
        )
    }
    let extraCPU = (on.cpuShare - off.cpuShare) * 100
    print(
        "    keeping adds \(String(format: "%.1f", extraCPU))% of a core, \(megabytes(on.peakRSSBytes - off.peakRSSBytes)) of"
            + " peak RSS, \(megabytes(on.peakHeapBytes - off.peakHeapBytes)) of peak heap"
    )
    report.figure("\(name).extra_cpu_percent", extraCPU)
    report.figure("\(name).extra_peak_rss_bytes", Double(on.peakRSSBytes - off.peakRSSBytes))
    report.figure("\(name).extra_peak_heap_bytes", Double(on.peakHeapBytes - off.peakHeapBytes))
    report.figure("\(name).writes", Double(on.writes))
}

/// A client serving `set`, then a one-config delta every 100 ms for `seconds`, then closed and its tail awaited;
/// with `keeping` (a file provider of that size limit) or caching off.
private func churn(_ set: ConfigSet, keeping sizeLimit: Int?, seconds: Double) async -> KeepingCost {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cd-bench-keep-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let provider = WriteCountingProvider(
        FileCachingProvider(clientSDKKey: "bench-key", directory: directory, sizeLimit: sizeLimit ?? 0)
    )
    let caching = CachingOptions(enabled: sizeLimit != nil, provider: provider)
    alloc_counter_trim()
    resetPeakRSS()
    let rssBefore = residentBytes().current
    let heapBefore = alloc_counter_live_bytes()
    alloc_counter_reset_peak()
    let cpuBefore = alloc_counter_process_cpu_ns()
    let started = nowNanoseconds()

    let served = await ServedClient.make(initial: set, telemetry: false, caching: caching)
    let keys = Array(set.configs.keys.prefix(100))
    var step = 0
    let end = started + UInt64(seconds * 1e9)
    while nowNanoseconds() < end {
        step += 1
        let key = keys[step % keys.count]
        var changed = set.configs[key]!
        changed.value = "churn-\(step)"
        served.server.serve(ConfigSet(kind: .delta, configs: [key: changed]))
        try? await Task.sleep(nanoseconds: 100_000_000)
    }
    await served.client.closeAndWait()

    let cpu = Double(alloc_counter_process_cpu_ns() - cpuBefore)
    let wall = Double(nowNanoseconds() - started)
    return KeepingCost(
        cpuShare: cpu / wall,
        peakRSSBytes: residentBytes().peak - rssBefore,
        peakHeapBytes: alloc_counter_peak_bytes() - heapBefore,
        writes: provider.writes
    )
}

/// A provider that counts the writes that reach the one it wraps.
private final class WriteCountingProvider: CachingProvider {
    private let wrapped: FileCachingProvider
    private let count = Protected(0)

    init(_ wrapped: FileCachingProvider) { self.wrapped = wrapped }

    var writes: Int { count.withLock { $0 } }

    func read() throws -> String? { try wrapped.read() }
    func write(_ entry: String) throws {
        count.withLock { $0 += 1 }
        try wrapped.write(entry)
    }
    func remove() throws { try wrapped.remove() }
    func sizeLimit() -> Int { wrapped.sizeLimit() }
    func instanceIDProvider() -> any CachingProvider { wrapped.instanceIDProvider() }
}

/// Sets the process's peak resident size to its current one (Linux: `/proc/self/clear_refs`).
private func resetPeakRSS() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// The process's resident size now and its peak since the last reset, from `/proc/self/status` (0 elsewhere).
private func residentBytes() -> (current: Int64, peak: Int64) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func kilobytes(_ field: String) -> Int64 {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
        return Int64(line.split(separator: " ").dropFirst().first.flatMap { Int64($0) } ?? 0) * 1_024
    }
    return (kilobytes("VmRSS"), kilobytes("VmHWM"))
}
