@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Testing) import ConfigTesting
import Foundation
import ModelTestSupport
import TestSupport

/// Evaluation latencies of one thread, in a histogram of 1 µs buckets up to 1 s.
///
/// A thread that waits makes no evaluation meanwhile, so timing only the evaluations made would hide
/// a stall behind the few evaluations it delays. Each evaluation that took longer than the interval
/// of the load (one evaluation per µs and thread) also records the evaluations that would have been
/// issued while it waited, with the latencies they would have had (coordinated omission corrected).
private final class LatencyHistogram: @unchecked Sendable {  // Written by its thread alone, read after it ends.
    private(set) var buckets = [UInt64](repeating: 0, count: 1_000_001)
    private(set) var count: UInt64 = 0
    private(set) var maximum: UInt64 = 0

    @inline(__always)
    func record(_ nanoseconds: UInt64) {
        buckets[Int(min(nanoseconds / 1_000, 1_000_000))] += 1
        count += 1
        maximum = max(maximum, nanoseconds)
        var missed = nanoseconds
        while missed >= 2_000 {
            missed -= 1_000
            buckets[Int(min(missed / 1_000, 1_000_000))] += 1
            count += 1
        }
    }

    /// The latency under which `fraction` of the samples of `histograms` fall, in nanoseconds.
    static func percentile(_ fraction: Double, of histograms: [LatencyHistogram]) -> Double {
        let total = histograms.reduce(0) { $0 + $1.count }
        let wanted = UInt64((Double(total) * fraction).rounded(.up))
        var seen: UInt64 = 0
        for bucket in 0..<1_000_001 {
            seen += histograms.reduce(0) { $0 + $1.buckets[bucket] }
            if seen >= wanted { return Double(bucket + 1) * 1_000 }
        }
        return .infinity
    }
}

/// Runs `threads` threads that evaluate `keys` round-robin and time every evaluation, while `work`
/// runs on the calling task; returns the histograms of the evaluations made while `work` ran.
private func evaluations(
    of client: ConfigDirectorClient,
    keys: [String],
    threads: Int,
    during work: () async -> Void
) async -> [LatencyHistogram] {
    let histograms = (0..<threads).map { _ in LatencyHistogram() }
    let phase = Protected(0)  // 0: warming up, 1: measuring, 2: stop
    let finished = DispatchGroup()
    for (number, histogram) in histograms.enumerated() {
        finished.enter()
        let thread = Thread {
            var index = number * 7_919 % keys.count
            while true {
                let current = phase.withLock { $0 }
                if current == 2 { break }
                for _ in 0..<256 {
                    let start = nowNanoseconds()
                    blackHole(client.value(for: keys[index], default: false))
                    let elapsed = nowNanoseconds() - start
                    if current == 1 { histogram.record(elapsed) }
                    index += 1
                    if index == keys.count { index = 0 }
                }
            }
            finished.leave()
        }
        thread.start()
    }
    try? await Task.sleep(nanoseconds: 200_000_000)
    phase.withLock { $0 = 1 }
    await work()
    phase.withLock { $0 = 2 }
    finished.wait()
    return histograms
}

/// A full set of `count` boolean configs, every value `value`.
private func booleanSet(count: Int, value: Bool) -> ConfigSet {
    var configs: [ExactKey: ConfigState] = [:]
    configs.reserveCapacity(count)
    for index in 0..<count {
        let key = flagKey(index)
        configs[ExactKey(key)] = ConfigState(id: "id-\(key)", key: key, type: .boolean, value: value ? "true" : "false")
    }
    return ConfigSet(environmentID: "env", projectID: "project", kind: .full, configs: configs)
}

/// The number of threads of this process, from `/proc/self/status` (Linux); `nil` elsewhere.
func threadCount() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
    return line.flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) }
}

/// 11. Evaluation stalls (issue 18): evaluations on 4 threads while full sets of 100,000 configs
/// apply, and while telemetry of 50,000 keys flushes; the first read of a key in a high slot; and the
/// threads that releasing 1,000 clients that never connected starts.
func benchmarkStalls() async {
    let configCount = 100_000
    print("\n== 11. Evaluation stalls: applies of \(configCount) configs, a flush of 50,000 keys, a high slot")
    let sets = [booleanSet(count: configCount, value: true), booleanSet(count: configCount, value: false)]
    let keys = (0..<configCount).map(flagKey)
    let machineP999 = await measureApplyStalls(sets: sets, keys: keys)
    await measureFlushStalls(initial: sets[0], keys: Array(keys.prefix(50_000)), machineP999: machineP999)
    await measureHighSlotFirstRead(initial: sets[0], slot: configCount - 1)
    await measureRelease()
}

/// The stall that applies of full sets add to evaluations on 4 threads, over what the machine alone imposes.
/// - Returns: The baseline's p99.9 latency, in nanoseconds: the machine's own stall.
private func measureApplyStalls(sets: [ConfigSet], keys: [String]) async -> Double {
    let served = await ServedClient.make(initial: sets[0], telemetry: true)
    defer { served.client.close() }
    let applies = isQuick ? 4 : 10
    // The apply alone, with no thread evaluating.
    var quietTimes: [Double] = []
    for round in 0..<3 {
        let start = nowNanoseconds()
        served.server.serve(sets[(round + 1) % 2])
        quietTimes.append(Double(nowNanoseconds() - start))
    }
    print("  an apply of \(keys.count) configs alone: \(formatDuration(Stats(quietTimes).median)) (median of 3)")
    report.figure("stall.quiet_apply_ms", Stats(quietTimes).median / 1e6)
    // The baseline: the same evaluations while this thread computes as long, taking no lock of the
    // client: what the machine alone makes them wait (a busy machine, and 5 threads on its cores).
    let quietApply = UInt64(Stats(quietTimes).median)
    let machine = await evaluations(of: served.client, keys: keys, threads: 4) {
        for _ in 0..<applies {
            let end = nowNanoseconds() + quietApply * 3
            var spin: UInt64 = 0
            while nowNanoseconds() < end { spin &+= 1 }
            blackHole(spin)
        }
    }
    let machineP999 = LatencyHistogram.percentile(0.999, of: machine)
    print("  baseline, 4 threads evaluating while this one spins as long: p99.9 \(formatDuration(machineP999))")
    report.figure("stall.machine_p999_ns", machineP999)
    var applyTimes: [Double] = []
    let applying = await evaluations(of: served.client, keys: keys, threads: 4) {
        for round in 0..<applies {
            let start = nowNanoseconds()
            served.server.serve(sets[(round + 1) % 2])
            applyTimes.append(Double(nowNanoseconds() - start))
        }
    }
    let applyP999 = LatencyHistogram.percentile(0.999, of: applying)
    let applyMaximum = Double(applying.map(\.maximum).max() ?? 0)
    print(
        "  \(applies) applies of \(keys.count) configs (median \(formatDuration(Stats(applyTimes).median)) each),"
            + " 4 threads evaluating: p99.9 \(formatDuration(applyP999)), max \(formatDuration(applyMaximum))"
            + " over \(applying.reduce(0) { $0 + $1.count }) evaluations and the ones a stall delayed"
    )
    report.figure("stall.apply_ms", Stats(applyTimes).median / 1e6)
    report.figure("stall.apply_p999_ns", applyP999)
    report.figure("stall.apply_max_ns", applyMaximum)
    report.target(
        "stall.apply",
        "applies of 100,000 configs add under 5 ms to the evaluations' p99.9 stall (over the baseline)",
        pass: applyP999 - machineP999 < 5e6
    )
    return machineP999
}

/// The stall that flushes of telemetry of `keys`, counted on 4 threads, add to their evaluations.
private func measureFlushStalls(initial: ConfigSet, keys: [String], machineP999: Double) async {
    let telemetry = await ServedClient.make(initial: initial, telemetry: true)
    defer { telemetry.client.close() }
    for key in keys { blackHole(telemetry.client.value(for: key, default: false)) }
    let flushing = await evaluations(of: telemetry.client, keys: keys, threads: 4) {
        for _ in 0..<(isQuick ? 3 : 6) {
            let before = telemetry.sink.batches.count
            telemetry.lifecycle.send(.didEnterBackground)
            for _ in 0..<2_000 where telemetry.sink.batches.count == before {
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
    }
    let flushP999 = LatencyHistogram.percentile(0.999, of: flushing)
    let flushMaximum = Double(flushing.map(\.maximum).max() ?? 0)
    print(
        "  flushes of \(keys.count) keys, 4 threads evaluating: p99.9 \(formatDuration(flushP999)),"
            + " max \(formatDuration(flushMaximum))"
    )
    report.figure("stall.flush_p999_ns", flushP999)
    report.figure("stall.flush_max_ns", flushMaximum)
    report.target(
        "stall.flush",
        "flushes of 50,000 keys add under 5 ms to the evaluations' p99.9 stall (over the baseline)",
        pass: flushP999 - machineP999 < 5e6
    )
}

/// The first read of the key in `slot`, on a client that read nothing yet.
private func measureHighSlotFirstRead(initial: ConfigSet, slot: Int) async {
    let fresh = await ServedClient.make(initial: initial, telemetry: true)
    defer { fresh.client.close() }
    let firstStart = nowNanoseconds()
    blackHole(fresh.client.value(for: flagKey(slot), default: false))
    let firstRead = Double(nowNanoseconds() - firstStart)
    print("  first read of the key in slot \(slot): \(formatDuration(firstRead))")
    report.figure("stall.high_slot_first_read_ns", firstRead)
    report.target("stall.high_slot", "the first read of a key in a high slot takes under 1 ms", pass: firstRead < 1e6)
}

/// The threads started when 1,000 clients that never connected are released at once.
private func measureRelease() async {
    let baseThreads = threadCount()
    let peak = Protected(baseThreads ?? 0)
    let sampling = Protected(true)
    let sampler = Thread {
        while sampling.withLock({ $0 }) {
            if let count = threadCount() { peak.withLock { $0 = max($0, count) } }
            usleep(500)
        }
    }
    var clients: [ConfigDirectorClient]? = (0..<1_000).map { _ in
        try! ConfigDirectorClient(
            clientSDKKey: "bench-key",
            options: ConfigDirectorClientOptions(
                logger: SilentLogger(),
                caching: CachingOptions(provider: InMemoryCachingProvider())
            )
        )
    }
    blackHole(clients?.count)
    sampler.start()
    clients = nil
    try? await Task.sleep(nanoseconds: 1_500_000_000)
    sampling.withLock { $0 = false }
    let extraThreads = (peak.withLock { $0 }) - (baseThreads ?? 0)
    if baseThreads != nil {
        print("  releasing 1,000 clients that never connected: \(extraThreads) more threads at the peak")
        report.figure("stall.release_extra_threads", Double(extraThreads))
    }
    report.target(
        "stall.release",
        "releasing 1,000 clients that never connected starts fewer than 32 threads",
        pass: baseThreads == nil || extraThreads < 32
    )
}
