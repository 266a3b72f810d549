@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Internal) import ConfigTransport
import Foundation

/// An in-memory transport that delivers a set on connect and then whatever the benchmark pushes.
final class ScriptedTransport: Transport, Sendable {
    private let handler: @Sendable (TransportEvent) -> Void
    private let initial: ConfigSet

    init(initial: ConfigSet, handler: @escaping @Sendable (TransportEvent) -> Void) {
        self.initial = initial
        self.handler = handler
    }

    func connect(context: ConfigDirectorContext?, reason: ConnectReason) {
        handler(.configSet(initial))
    }

    /// Delivers a set as the server would push it.
    func deliver(_ set: ConfigSet) {
        handler(.configSet(set))
    }

    func disconnect() {}
    func close() {}
}

/// Makes one ``ScriptedTransport`` and keeps it for the benchmark to drive.
final class ScriptedTransportFactory: TransportFactory, @unchecked Sendable {
    // `made` is guarded by `lock`.
    private let lock = NSLock()
    private let initial: ConfigSet
    private var made: ScriptedTransport?

    init(initial: ConfigSet) {
        self.initial = initial
    }

    func makeTransport(handler: @escaping @Sendable (TransportEvent) -> Void) -> any Transport {
        let transport = ScriptedTransport(initial: initial, handler: handler)
        lock.withLock { made = transport }
        return transport
    }

    var transport: ScriptedTransport? { lock.withLock { made } }
}

/// A sink that counts batches and the evaluations they carry.
final class CountingTelemetrySink: TelemetrySink, @unchecked Sendable {
    // `sent` is guarded by `lock`.
    private let lock = NSLock()
    private var sent: [TelemetryBatch] = []

    func send(_ batch: TelemetryBatch) async -> Bool {
        lock.withLock { sent.append(batch) }
        return true
    }

    var batches: [TelemetryBatch] { lock.withLock { sent } }
}

/// Logs nothing.
struct SilentLogger: ConfigDirectorLogger {
    var level: ConfigDirectorLogLevel { .off }
    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {}
}

/// A lifecycle the benchmark drives.
final class ManualLifecycleObserver: AppLifecycleObserver, @unchecked Sendable {
    // `handler` is guarded by `lock`.
    private let lock = NSLock()
    private var handler: (@Sendable (AppLifecycleEvent) -> Void)?

    func start(_ handler: @escaping @Sendable (AppLifecycleEvent) -> Void) {
        lock.withLock { self.handler = handler }
    }

    func stop() {
        lock.withLock { handler = nil }
    }

    func send(_ event: AppLifecycleEvent) {
        let handler = lock.withLock { self.handler }
        handler?(event)
    }
}

/// Real time whose sleeps never end (until cancelled), so that no timer flush interferes.
struct FrozenTimersClock: TransportClock {
    func now() -> Date { SystemTransportClock().now() }
    func coarseNow() -> Date { SystemTransportClock().coarseNow() }
    func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: 1_000_000_000 * 3_600 * 24)
    }
}

/// `count` boolean configs `flag-0000`… served `true`.
func booleanSet(count: Int) -> ConfigSet {
    var configs: [String: ConfigState] = [:]
    for index in 0..<count {
        let key = flagKey(index)
        configs[key] = ConfigState(id: "id-\(key)", key: key, type: .boolean, value: index % 2 == 0 ? "true" : "false")
    }
    return ConfigSet(environmentID: "env", projectID: "project", kind: .full, configs: configs)
}

func flagKey(_ index: Int) -> String { "flag-" + String(format: "%04d", index) }

/// A client served by a scripted transport, initialized and ready.
struct ScriptedClient {
    let client: ConfigDirectorClient
    let transport: ScriptedTransport
    let lifecycle: ManualLifecycleObserver
    let sink: CountingTelemetrySink

    static func make(
        initial: ConfigSet,
        telemetry: Bool,
        hooks: [any ConfigDirectorHook] = []
    ) async -> ScriptedClient {
        let factory = ScriptedTransportFactory(initial: initial)
        let lifecycle = ManualLifecycleObserver()
        let sink = CountingTelemetrySink()
        let client = try! ConfigDirectorClient(
            clientSDKKey: "bench-key",
            options: ConfigDirectorClientOptions(
                connection: ConnectionOptions(pausesWhileBackgrounded: false),
                logger: SilentLogger(),
                caching: CachingOptions(enabled: false, provider: InMemoryCachingProvider()),
                hooks: hooks
            ),
            environment: ClientEnvironment(
                transportFactory: factory,
                telemetry: telemetry ? .sink(sink) : .disabled,
                lifecycleObserver: lifecycle,
                clock: FrozenTimersClock()
            )
        )
        await client.initialize(context: ConfigDirectorContext(id: "user-1"))
        precondition(client.isReady, "the scripted client did not become ready")
        return ScriptedClient(client: client, transport: factory.transport!, lifecycle: lifecycle, sink: sink)
    }
}

/// A value guarded by a lock, for the baselines.
final class LockedBox<Value>: @unchecked Sendable {
    // `value` is guarded by `lock`.
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    @inline(__always)
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The boolean parse of PROTOCOL §8 (`true`/`false` in any case), as the baseline does it.
@inline(__always)
func parseBoolean(_ text: String) -> Bool? {
    let utf8 = text.utf8
    if utf8.count == 4, zip(utf8, "true".utf8).allSatisfy({ $0 | 0x20 == $1 }) { return true }
    if utf8.count == 5, zip(utf8, "false".utf8).allSatisfy({ $0 | 0x20 == $1 }) { return false }
    return nil
}
