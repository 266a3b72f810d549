@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Testing) import ConfigTesting
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport

/// Real time whose sleeps never end (until cancelled), so that no timer flush interferes.
///
/// Not the tests' `ManualClock`: an evaluation with telemetry on reads `coarseNow()`, which here is the
/// real time read without a lock; the manual clock's time sits behind a lock that every evaluation of
/// every thread would take, and benchmarks 1, 2 and 6 would measure that lock.
struct FrozenTimersClock: TransportClock {
    func now() -> Date { SystemTransportClock().now() }
    func coarseNow() -> Date { SystemTransportClock().coarseNow() }
    func uptime() -> Double { SystemTransportClock().uptime() }
    func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: 1_000_000_000 * 3_600 * 24)
    }
}

/// `count` boolean configs `flag-0000`… served `true` and `false` in turn; with `valueIDs`, each with the
/// value id `v-<key>`, as the service sends it (without, a value id is a SHA-256 of the value).
func booleanSet(count: Int, valueIDs: Bool = false) -> ConfigSet {
    var configs: [ExactKey: ConfigState] = [:]
    for index in 0..<count {
        let key = flagKey(index)
        configs[ExactKey(key)] = ConfigState(
            id: "id-\(key)", key: key, type: .boolean, value: index % 2 == 0 ? "true" : "false",
            valueID: valueIDs ? "v-\(key)" : nil)
    }
    return ConfigSet(environmentID: "env", projectID: "project", kind: .full, configs: configs)
}

/// `count` string configs named as `booleanSet`'s, each with a value id: a text of 33 characters, too long for a small string.
func stringSet(count: Int) -> ConfigSet {
    var configs: [ExactKey: ConfigState] = [:]
    for index in 0..<count {
        let key = flagKey(index)
        configs[ExactKey(key)] = ConfigState(
            id: "id-\(key)", key: key, type: .string, value: "the text of \(key), a long one", valueID: "v-\(key)")
    }
    return ConfigSet(environmentID: "env", projectID: "project", kind: .full, configs: configs)
}

func flagKey(_ index: Int) -> String { "flag-" + String(format: "%04d", index) }

/// A client served by ConfigTesting's in-memory server, initialized and ready.
struct ServedClient {
    let client: ConfigDirectorClient
    /// The server: `serve(_:)` delivers a set as the service sends it.
    let server: InMemoryServer
    let lifecycle: ManualLifecycleObserver
    let sink: RecordingTelemetrySink

    static func make(
        initial: ConfigSet,
        telemetry: Bool,
        hooks: [any ConfigDirectorHook] = [],
        caching: CachingOptions = CachingOptions(enabled: false, provider: InMemoryCachingProvider()),
        safeMode: SafeModeOptions = .disabled,
        overrides: LocalOverrideOptions = .disabled
    ) async -> ServedClient {
        let server = InMemoryServer(values: [:], logger: SilentLogger())
        server.serve(initial)
        let lifecycle = ManualLifecycleObserver()
        let sink = RecordingTelemetrySink()
        let client = try! ConfigDirectorClient(
            clientSDKKey: "bench-key",
            options: ConfigDirectorClientOptions(
                connection: ConnectionOptions(pausesWhileBackgrounded: false),
                logger: SilentLogger(),
                caching: caching,
                hooks: hooks,
                safeMode: safeMode,
                overrides: overrides
            ),
            environment: ClientEnvironment(
                transportFactory: InMemoryTransportFactory(server: server),
                telemetry: telemetry ? .sink(sink) : .disabled,
                lifecycleObserver: lifecycle,
                clock: FrozenTimersClock()
            )
        )
        await client.initialize(context: ConfigDirectorContext(id: "user-1"))
        precondition(client.isReady, "the served client did not become ready")
        return ServedClient(client: client, server: server, lifecycle: lifecycle, sink: sink)
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
