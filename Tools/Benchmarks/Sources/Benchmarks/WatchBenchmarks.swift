import AllocCounter
@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
import ConfigEmulator
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Testing) import ConfigTesting
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport

/// 4. Applying a one-key delta with 10,000 watch streams on distinct keys, against 10 streams.
func benchmarkWatchFanOut() async {
    print("\n== 4. Watch fan-out: a one-key delta with 10,000 watch streams against 10")
    let set = booleanSet(count: 10_000)
    let few = await ServedClient.make(initial: set, telemetry: true)
    let many = await ServedClient.make(initial: set, telemetry: true)
    var streams: [AsyncStream<Bool>] = []
    for index in 0..<10 { streams.append(few.client.values(for: flagKey(index), default: false)) }
    for index in 0..<10_000 { streams.append(many.client.values(for: flagKey(index), default: false)) }

    let key = flagKey(0)
    let deltas = [
        ConfigSet(kind: .delta, configs: [ExactKey(key): ConfigState(key: key, type: .boolean, value: "false")]),
        ConfigSet(kind: .delta, configs: [ExactKey(key): ConfigState(key: key, type: .boolean, value: "true")]),
    ]
    var fewIndex = 0
    var manyIndex = 0
    let (baseline, subject) = compare(
        operations: 200,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: {
            few.server.serve(deltas[fewIndex & 1])
            fewIndex += 1
        },
        subject: {
            many.server.serve(deltas[manyIndex & 1])
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

/// A streaming client connected to `emulator` (at `baseURL` when given, such as a TLS front), initialized.
func emulatorClient(_ emulator: ConfigEmulator, baseURL: URL? = nil) async -> ConfigDirectorClient {
    let client = try! ConfigDirectorClient(
        clientSDKKey: "emulator-sdk-key",
        options: ConfigDirectorClientOptions(
            connection: ConnectionOptions(
                mode: .streaming,
                baseURL: baseURL ?? emulator.baseURL,
                pausesWhileBackgrounded: false
            ),
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
    let emulator = ConfigEmulator(configs: [EmulatedConfig(key: "counter", type: .integer, value: .int(0))])
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

    let served = await ServedClient.make(
        initial: ConfigSet(kind: .full, configs: ["counter": ConfigState(type: .integer, value: "0")]),
        telemetry: false
    )
    var local = served.client.values(for: "counter", default: -1).makeAsyncIterator()
    _ = await local.next()

    var liveTimes: [Double] = []
    var localTimes: [Double] = []
    for change in 1...changes {
        var start = nowNanoseconds()
        _ = emulator.setValue(.int(change), forKey: "counter")
        while let value = await live.next(), value != change {}
        liveTimes.append(Double(nowNanoseconds() - start))

        start = nowNanoseconds()
        served.server.serve(
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
    served.client.close()
}

/// 8. CPU used by a streaming client connected and idle, against the process with the emulator alone; over http,
/// and on Linux over https too (through a TLS front for the emulator, ``tlsFront(forwardingTo:)``).
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
    let baseline = await processCPU(during: seconds)
    print("  baseline: emulator alone                 \(formatDuration(baseline)) of CPU in \(Int(seconds)) s")
    report.figure("idle.baseline_cpu_ns", baseline)
    await measureIdleClient(
        "idle",
        over: "http",
        client: await emulatorClient(emulator),
        baseline: baseline,
        seconds: seconds
    )
    #if os(Linux)
    await benchmarkIdleHTTPS(emulator: emulator, baseline: baseline, seconds: seconds)
    #endif
}

#if os(Linux)
/// 8, https: the same idle client over TLS, through a Python TLS front for the emulator. On Linux the SDK's socket
/// client speaks TLS with the system's OpenSSL; without it, https would go to `URLSession`, which spins a core.
func benchmarkIdleHTTPS(emulator: ConfigEmulator, baseline: Double, seconds: Double) async {
    guard let front = await tlsFront(forwardingTo: emulator.port) else {
        print("  the TLS front did not start (python3 and openssl are needed)")
        report.target("idle.https", "over https, under 10 ms of CPU in 10 s", pass: false)
        return
    }
    defer {
        front.peer.stop()
        front.certificates.remove()
    }
    let baseURL = URL(string: "https://127.0.0.1:\(front.peer.port)")!
    let layer = PlatformHTTPClient.usesSocket(for: baseURL) ? "the SDK's socket client (OpenSSL)" : "URLSession"
    print("  https goes through \(layer)")
    await measureIdleClient(
        "idle.https",
        over: "https",
        client: await emulatorClient(emulator, baseURL: baseURL),
        baseline: baseline,
        seconds: seconds
    )
}
#endif

/// The process's CPU time, in nanoseconds, used while it sleeps for `seconds`.
func processCPU(during seconds: Double) async -> Double {
    let before = alloc_counter_process_cpu_ns()
    try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
    return Double(alloc_counter_process_cpu_ns() - before)
}

/// Prints and reports the CPU share of `client`, connected and idle, over the process's `baseline`.
func measureIdleClient(
    _ name: String,
    over scheme: String,
    client: ConfigDirectorClient,
    baseline: Double,
    seconds: Double
) async {
    defer { client.close() }
    guard client.isReady else {
        print("  the client did not connect over \(scheme)")
        report.target(name, "over \(scheme), under 10 ms of CPU in 10 s", pass: false)
        return
    }
    try? await Task.sleep(nanoseconds: 200_000_000)
    let subject = await processCPU(during: seconds)
    let clientCPU = max(0, subject - baseline) * 10 / seconds
    let label = "subject:  emulator + idle client, \(scheme)".padding(toLength: 41, withPad: " ", startingAt: 0)
    print("  \(label)\(formatDuration(subject)) of CPU in \(Int(seconds)) s")
    let share = "the client's share, \(scheme), per 10 s:".padding(toLength: 41, withPad: " ", startingAt: 0)
    print("  \(share)\(formatDuration(clientCPU))")
    report.figure("\(name).subject_cpu_ns", subject)
    report.figure("\(name).client_cpu_ns_per_10s", clientCPU)
    report.target(name, "over \(scheme), under 10 ms of CPU in 10 s", pass: clientCPU < 10e6)
}
