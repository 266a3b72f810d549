@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Testing) import ConfigTesting
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// A real client whose seams a test holds: ConfigTesting's in-memory server (or, given an `answer`, a
/// scripted transport), a manual clock, a recording logger, a recording telemetry sink, a driven
/// lifecycle and values kept in memory.
struct ClientFixture {
    /// The SDK key of the fixture's client.
    static let sdkKey = "client-sdk-key-SECRET-456"

    let client: ConfigDirectorClient
    private let source: Source
    let clock = ManualClock()
    let logger = RecordingLogger(forbidding: RecordingLogger.sdkKeys)
    let telemetry = RecordingTelemetrySink()
    let lifecycle = ManualLifecycleObserver()

    /// What the client connects to.
    private enum Source {
        case server(InMemoryServer)
        case scripted(ScriptedTransportFactory)
    }

    /// A client served by ConfigTesting's in-memory server, which serves `initial` on every connect, or,
    /// given an `answer`, by a ``ScriptedTransport`` that answers every connect so.
    init(
        answer: ScriptedTransport.Answer? = nil,
        initial: ConfigSet = .sample,
        connection: ConnectionOptions = ConnectionOptions(),
        caching: CachingOptions = CachingOptions(provider: InMemoryCachingProvider()),
        hooks: [any ConfigDirectorHook] = [],
        bundledValues: BundledValues? = nil,
        overrides: LocalOverrideOptions = .disabled,
        updatePolicy: UpdatePolicy = .live,
        arguments: [String] = [],
        environmentVariables: [String: String] = [:]
    ) throws {
        let transportFactory: any TransportFactory
        if let answer {
            let factory = ScriptedTransportFactory(answer: answer)
            source = .scripted(factory)
            transportFactory = factory
        } else {
            let server = InMemoryServer(values: [:], logger: SilentLogger())
            server.serve(initial)
            source = .server(server)
            transportFactory = InMemoryTransportFactory(server: server)
        }
        client = try ConfigDirectorClient(
            clientSDKKey: Self.sdkKey,
            options: ConfigDirectorClientOptions(
                connection: connection, logger: logger, caching: caching, hooks: hooks, bundledValues: bundledValues,
                overrides: overrides, updatePolicy: updatePolicy),
            environment: ClientEnvironment(
                transportFactory: transportFactory,
                telemetry: .sink(telemetry),
                lifecycleObserver: lifecycle,
                clock: clock,
                arguments: arguments,
                environmentVariables: environmentVariables
            )
        )
    }

    /// The in-memory server of a fixture made without an answer: `serve(_:)` delivers a set as the
    /// service sends it.
    var server: InMemoryServer {
        get throws {
            guard case .server(let server) = source else { throw FixtureError.scripted }
            return server
        }
    }

    /// The factory of the scripted transport, for a fixture made with an answer.
    var factory: ScriptedTransportFactory {
        get throws {
            guard case .scripted(let factory) = source else { throw FixtureError.served }
            return factory
        }
    }

    /// The scripted transport the client connected with, for a fixture made with an answer.
    var transport: ScriptedTransport {
        get throws {
            guard let transport = try factory.transport else { throw FixtureError.notConnected }
            return transport
        }
    }

    enum FixtureError: Error {
        case notConnected
        /// The fixture has a scripted transport, not a server.
        case scripted
        /// The fixture has a server, not a scripted transport.
        case served
    }

    /// Advances the clock until an operation waiting on it ends, in small steps so no deadline is skipped.
    func advance(by seconds: Double) async {
        for _ in 0..<Int(seconds * 10) {
            await Task.yield()
            clock.advance(by: 0.1)
        }
        await Task.yield()
    }
}

/// A first launch that connects for `context` and keeps the sample's values in `provider`.
/// - Returns: Whether the values were kept.
func keepSampleValues(in provider: InMemoryCachingProvider, for context: ConfigDirectorContext) async throws -> Bool {
    let first = try ClientFixture(caching: CachingOptions(provider: provider))
    await first.client.initialize(context: context)
    first.client.close()
    return await eventually { provider.read() != nil }
}

/// Sends the app to the background, which flushes telemetry, and returns the `number`th batch sent.
func flushedBatch(_ fixture: ClientFixture, number: Int = 1) async throws -> TelemetryBatch {
    fixture.lifecycle.send(.didEnterBackground)
    #expect(await eventually { fixture.telemetry.batches.count >= number })
    fixture.lifecycle.send(.willEnterForeground)
    let batches = fixture.telemetry.batches
    try #require(batches.count >= number)
    return batches[number - 1]
}

extension ConfigSet {
    /// A full set of one config of each common type.
    static let sample = ConfigSet(
        kind: .full,
        configs: [
            "dark-mode": ConfigState(key: "dark-mode", type: .boolean, value: "true", valueID: "on"),
            "max-items": ConfigState(key: "max-items", type: .integer, value: "20"),
            "ratio": ConfigState(key: "ratio", type: .float, value: "2.5"),
            "greeting": ConfigState(key: "greeting", type: .string, value: "hello"),
            "theme": ConfigState(key: "theme", type: .json, value: ##"{"primary":"#101010","cornerRadius":8}"##),
            "empty": ConfigState(key: "empty", type: .string, value: ""),
        ]
    )

    /// A set of the given kind carrying the given string configs.
    static func strings(_ values: [String: String], kind: Kind = .delta) -> ConfigSet {
        ConfigSet(
            kind: kind,
            configs: Dictionary(
                uniqueKeysWithValues: values.map { (ExactKey($0), ConfigState(type: .string, value: $1)) }))
    }
}

extension RecordingLogger {
    /// The SDK keys the suite's clients are made with: no log line may carry one (issue 18).
    static let sdkKeys = [ClientFixture.sdkKey, "test-key"]
}
