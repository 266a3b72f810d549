public import ConfigEmulator
public import Foundation

/// Runs `body` with an emulator started on an ephemeral loopback port, and stops it afterwards, whether
/// `body` returns or throws. Every connection and thread the emulator opened is gone when this returns.
///
/// ```swift
/// try await withEmulator(configs: [EmulatedConfig(key: "dark-mode", type: .boolean, value: true)]) { emulator in
///     let client = makeClient(baseURL: emulator.baseURL, sdkKey: "test-sdk-key")
///     …
///     emulator.setValue(false, forKey: "dark-mode")
/// }
/// ```
/// - Parameters:
///   - configs: The configs served at start.
///   - sdkKey: The client SDK key the emulator accepts.
///   - heartbeatInterval: Seconds of silence before a stream's heartbeat comment.
///   - configure: Changes to the rest of the configuration (limits, logger, watched file).
///   - body: The test, given the running emulator; its ``ConfigEmulator/baseURL`` is the SDK's base URL.
/// - Returns: What `body` returns.
/// - Throws: ``EmulatorError`` when the emulator cannot start, or what `body` throws.
public func withEmulator<Result>(
    configs: [EmulatedConfig] = [],
    sdkKey: String = "test-sdk-key",
    heartbeatInterval: TimeInterval = 15,
    configure: (inout EmulatorConfiguration) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ConfigEmulator) async throws -> Result
) async throws -> Result {
    var configuration = EmulatorConfiguration(
        port: 0, sdkKey: sdkKey, document: ConfigsDocument(configs: configs), heartbeatInterval: heartbeatInterval
    )
    configure(&configuration)
    let emulator = ConfigEmulator(configuration: configuration)
    try emulator.start()
    defer { emulator.stop() }
    return try await body(emulator)
}
