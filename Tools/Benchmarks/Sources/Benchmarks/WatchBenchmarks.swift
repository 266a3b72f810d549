import AllocCounter
@_spi(Internal) @_spi(Testing) import ConfigClient
import ConfigEmulator
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
import Foundation

/// 4. Applying a one-key delta with 10,000 watch streams on distinct keys, against 10 streams.
func benchmarkWatchFanOut() async {
    print("\n== 4. Watch fan-out: a one-key delta with 10,000 watch streams against 10")
    let set = booleanSet(count: 10_000)
    let few = await ScriptedClient.make(initial: set, telemetry: true)
    let many = await ScriptedClient.make(initial: set, telemetry: true)
    var streams: [AsyncStream<Bool>] = []
    for index in 0..<10 { streams.append(few.client.values(for: flagKey(index), default: false)) }
    for index in 0..<10_000 { streams.append(many.client.values(for: flagKey(index), default: false)) }

    let key = flagKey(0)
    let deltas = [
        ConfigSet(kind: .delta, configs: [key: ConfigState(key: key, type: .boolean, value: "false")]),
        ConfigSet(kind: .delta, configs: [key: ConfigState(key: key, type: .boolean, value: "true")]),
    ]
    var fewIndex = 0
    var manyIndex = 0
    let (baseline, subject) = compare(
        operations: 200,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: {
            few.transport.deliver(deltas[fewIndex & 1])
            fewIndex += 1
        },
        subject: {
            many.transport.deliver(deltas[manyIndex & 1])
            manyIndex += 1
        }
    )
    let ratio = printComparison(
        "watch",
        baseline: ("delta with 10 watch streams", baseline),
        subject: ("delta with 10,000 watch streams", subject)
    )
    report.target("watch", "10,000 streams ≤ 1.5× the cost with 10", pass: ratio <= 1.5)
    blackHole(streams)
    few.client.close()
    many.client.close()
}

/// A streaming client connected to `emulator`, initialized.
func emulatorClient(_ emulator: ConfigEmulator) async -> ConfigDirectorClient {
    let client = try! ConfigDirectorClient(
        clientSDKKey: "emulator-sdk-key",
        options: ConfigDirectorClientOptions(
            connection: ConnectionOptions(mode: .streaming, baseURL: emulator.baseURL, pausesWhileBackgrounded: false),
            logger: SilentLogger(),
            caching: CachingOptions(enabled: false, provider: InMemoryCachingProvider())
        ),
        environment: ClientEnvironment(telemetry: .disabled, lifecycleObserver: ManualLifecycleObserver())
    )
    await client.initialize(context: ConfigDirectorContext(id: "user-1"))
    return client
}

/// 5. An admin change on the in-process emulator to the yield of a `values(for:)` stream, over loopback.
func benchmarkPropagation() async {
    let changes = isQuick ? 200 : 1_000
    print("\n== 5. Propagation: emulator change to values(for:) yield, \(changes) changes over loopback")
    let emulator = ConfigEmulator(configs: [EmulatedConfig(key: "counter", type: .integer, value: .integer(0))])
    do { try emulator.start() } catch {
        print("  the emulator did not start: \(error)")
        report.target("propagation", "p50 under 2 ms, p99 under 10 ms", pass: false)
        return
    }
    defer { emulator.stop() }
    let client = await emulatorClient(emulator)
    precondition(client.isReady, "the client did not connect to the emulator")
    var live = client.values(for: "counter", default: -1).makeAsyncIterator()
    _ = await live.next()

    let scripted = await ScriptedClient.make(
        initial: ConfigSet(kind: .full, configs: ["counter": ConfigState(type: .integer, value: "0")]),
        telemetry: false
    )
    var local = scripted.client.values(for: "counter", default: -1).makeAsyncIterator()
    _ = await local.next()

    var liveTimes: [Double] = []
    var localTimes: [Double] = []
    for change in 1...changes {
        var start = nowNanoseconds()
        _ = emulator.setValue(.integer(change), forKey: "counter")
        while let value = await live.next(), value != change {}
        liveTimes.append(Double(nowNanoseconds() - start))

        start = nowNanoseconds()
        scripted.transport.deliver(
            ConfigSet(kind: .delta, configs: ["counter": ConfigState(type: .integer, value: String(change))])
        )
        while let value = await local.next(), value != change {}
        localTimes.append(Double(nowNanoseconds() - start))
    }
    let baseline = Stats(localTimes)
    let subject = Stats(liveTimes)
    printComparison(
        "propagation",
        baseline: ("in-memory transport delta", baseline),
        subject: ("emulator over loopback", subject)
    )
    report.target(
        "propagation",
        "p50 under 2 ms and p99 under 10 ms",
        pass: subject.median < 2e6 && subject.p99 < 10e6
    )
    client.close()
    scripted.client.close()
}

/// 8. CPU used by a streaming client connected and idle, against the process with the emulator alone.
func benchmarkIdle() async {
    let seconds = isQuick ? 2.0 : 10.0
    print("\n== 8. Idle: a streaming client connected and idle for \(Int(seconds)) s")
    let emulator = ConfigEmulator(configs: [EmulatedConfig(key: "dark-mode", type: .boolean, value: .bool(true))])
    do { try emulator.start() } catch {
        print("  the emulator did not start: \(error)")
        report.target("idle", "under 10 ms of CPU in 10 s", pass: false)
        return
    }
    defer { emulator.stop() }
    func cpu(during seconds: Double) async -> Double {
        let before = alloc_counter_process_cpu_ns()
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        return Double(alloc_counter_process_cpu_ns() - before)
    }
    let baseline = await cpu(during: seconds)
    let client = await emulatorClient(emulator)
    precondition(client.isReady, "the client did not connect to the emulator")
    try? await Task.sleep(nanoseconds: 200_000_000)
    let subject = await cpu(during: seconds)
    let clientCPU = max(0, subject - baseline) * 10 / seconds
    print("  baseline: emulator alone            \(formatDuration(baseline)) of CPU in \(Int(seconds)) s")
    print("  subject:  emulator + idle client    \(formatDuration(subject)) of CPU in \(Int(seconds)) s")
    print("  the client's share, per 10 s:       \(formatDuration(clientCPU))")
    report.figure("idle.baseline_cpu_ns", baseline)
    report.figure("idle.subject_cpu_ns", subject)
    report.figure("idle.client_cpu_ns_per_10s", clientCPU)
    report.target("idle", "under 10 ms of CPU in 10 s", pass: clientCPU < 10e6)
    client.close()
}
