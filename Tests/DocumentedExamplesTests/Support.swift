@_spi(Testing) import ConfigDirector
import ConfigEmulator
import EmulatorTestSupport
import Foundation

/// The configs the reference page's examples read, served by the emulator.
let documentedConfigs: [EmulatedConfig] = [
    EmulatedConfig(key: "my-config-key", type: .boolean, value: true),
    EmulatedConfig(key: "my-string-config-key", type: .string, value: "Served"),
    EmulatedConfig(key: "my-integer-config-key", type: .integer, value: 250),
    EmulatedConfig(key: "my-boolean-config-key", type: .boolean, value: true),
    EmulatedConfig(key: "dark-mode", type: .boolean, value: false),
    EmulatedConfig(key: "theme", type: .json, value: ["primary": "#fafafa", "cornerRadius": 12]),
    EmulatedConfig(key: "default-locale", type: .string, value: "fr_FR"),
    EmulatedConfig(
        key: "region-greeting",
        type: .string,
        value: "hello",
        rules: [ContextRule(trait: "region", equals: "Australia", value: "g'day")]
    ),
]

/// The SDK key the examples use, which the emulator accepts.
let documentedSDKKey = "YOUR-CLIENT-SDK-KEY"

/// Runs `body` with a client of the documented SDK key connected to an emulator serving `documentedConfigs`.
/// Its connection timeout is generous by default: `initialize` returns as soon as the values arrive, and the
/// timeout only has to hold on a machine busy with other tests.
///
/// The examples that create their own client name no base URL, so they would reach ConfigDirector's
/// service; they are compiled as written, and what the page says about them is checked here with the
/// same calls against the emulator.
func withDocumentedClient(
    timeout: Double = 10,
    _ body: (ConfigDirectorClient, ConfigEmulator) async throws -> Void
) async throws {
    try await withEmulator(configs: documentedConfigs, sdkKey: documentedSDKKey) { emulator in
        let client = try ConfigDirectorClient(
            clientSDKKey: documentedSDKKey,
            options: ConfigDirectorClientOptions(
                connection: ConnectionOptions(timeout: timeout, baseURL: emulator.baseURL),
                logger: ConsoleLogger(level: .off),
                caching: CachingOptions(enabled: false)
            )
        )
        defer { client.close() }
        try await body(client, emulator)
    }
}

/// Whether `event` arrives on `events` within `seconds`; the client is closed after that, which
/// finishes the stream, so the wait is bounded.
func first(
    _ event: ClientEvent,
    in events: AsyncStream<ClientEvent>,
    closing client: ConfigDirectorClient,
    within seconds: Double = 5
) async -> Bool {
    let watchdog = Task {
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        client.close()
    }
    defer { watchdog.cancel() }
    for await received in events where received == event { return true }
    return false
}
