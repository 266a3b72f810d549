@_spi(Internal) @_spi(Testing) import ConfigClient
import ConfigEmulator
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport

/// The SDK key the emulators of these tests accept.
let emulatorSDKKey = "e2e-sdk-key"

/// The configs served at the start of every test: values per context id, per trait and per kind.
let servedConfigs: [EmulatedConfig] = [
    EmulatedConfig(
        key: "dark-mode",
        type: .boolean,
        value: false,
        rules: [ContextRule(id: "user-1", value: true, valueID: "dark-on")]
    ),
    EmulatedConfig(
        key: "greeting",
        type: .string,
        value: "hello",
        rules: [ContextRule(trait: "plan", equals: "pro", value: "hello, pro")]
    ),
    EmulatedConfig(
        key: "max-items",
        type: .integer,
        value: 20,
        rules: [ContextRule(kind: "tenant", id: "acme", value: 100)]
    ),
]

/// The user whom `dark-mode` is on for, on the pro plan.
let proUser = ConfigDirectorContext(id: "user-1", name: "Ada", traits: ["plan": "pro"])
/// A user on no plan, whom every config serves its default value.
let otherUser = ConfigDirectorContext(id: "user-2")

/// The body of a streaming or polling request, as the emulator recorded it.
struct ConnectionRequestBody: Decodable {
    var clientSdkKey: String
    var givenContext: ConfigDirectorContext
    var instanceId: String?
    var lastUpdateTimestamp: String?

    init(_ request: RecordedRequest) throws {
        self = try JSONDecoder().decode(ConnectionRequestBody.self, from: request.body)
    }
}

/// What the transports of a test are made with, aimed at `emulator`.
func transportConfiguration(
    emulator: ConfigEmulator,
    sdkKey: String = emulatorSDKKey,
    logger: RecordingLogger,
    clock: any TransportClock,
    pollingInterval: Double = TransportConfiguration.defaultPollingInterval,
    randomFraction: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
) -> TransportConfiguration {
    TransportConfiguration(
        clientSDKKey: sdkKey,
        endpoint: ServiceEndpoint(baseURL: emulator.baseURL),
        metaContext: MetaContext(appName: "EndToEndTests", appVersion: "1.0"),
        instanceID: UUID().uuidString,
        logger: logger,
        pollingInterval: pollingInterval,
        // Generous, as the clock may be scaled down a hundredfold: a 3 s poll timeout would be 30 ms of real time,
        // which a poll under the thread sanitizer can exceed (seen in a fresh-clone run).
        connectionTimeout: 1_000,
        clock: clock,
        randomFraction: randomFraction
    )
}

/// A client over HTTP with real telemetry, as apps get it, whose clock runs faster than real time
/// (every delay it waits is scaled down, so a 30 s polling interval passes in 0.3 s); the telemetry
/// reporter's own 5 s request timeout stays real.
struct EndToEndClient {
    let client: ConfigDirectorClient
    let clock: ScaledClock
    let logger = RecordingLogger()

    /// The factor from the client's seconds to real seconds in each mode: polling needs its 30 s
    /// interval to pass quickly; streaming needs only its backoff to be short.
    static func scale(for mode: ConnectionMode) -> Double {
        mode == .polling ? 0.01 : 0.1
    }

    /// Creates a client.
    /// - Parameters:
    ///   - mode: Streaming or polling.
    ///   - baseURL: The emulator's base URL.
    ///   - sdkKey: The client SDK key.
    ///   - timeout: The connection timeout, in real seconds. Generous by default: `initialize` returns as soon
    ///     as the values arrive, and the timeout only has to hold on a machine busy with other tests.
    ///   - caching: Where values are kept; in memory, and new, by default.
    ///   - scale: The factor from the client's seconds to real seconds; by default the mode's.
    ///   - overrides: Local overrides; off by default.
    ///   - updatePolicy: When values received apply; at once by default.
    init(
        mode: ConnectionMode,
        baseURL: URL,
        sdkKey: String = emulatorSDKKey,
        timeout: Double = 10,
        caching: CachingOptions = CachingOptions(provider: InMemoryCachingProvider()),
        scale: Double? = nil,
        overrides: LocalOverrideOptions = .disabled,
        updatePolicy: UpdatePolicy = .live
    ) throws {
        let scale = scale ?? Self.scale(for: mode)
        clock = ScaledClock(scale: scale)
        client = try ConfigDirectorClient(
            clientSDKKey: sdkKey,
            options: ConfigDirectorClientOptions(
                metadata: ConfigDirectorMetaContext(appName: "EndToEndTests", appVersion: "1.0"),
                connection: ConnectionOptions(
                    mode: mode,
                    pollingInterval: 30,
                    timeout: timeout / scale,
                    baseURL: baseURL
                ),
                logger: logger,
                caching: caching,
                overrides: overrides,
                updatePolicy: updatePolicy
            ),
            environment: ClientEnvironment(clock: clock)
        )
    }
}
