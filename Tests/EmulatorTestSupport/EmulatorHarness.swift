public import ConfigEmulator
public import Foundation

/// Runs `body` with an emulator started on an ephemeral loopback port that serves `configs`, and stops it
/// afterwards, whether `body` returns or throws. Every connection and thread the emulator opened is gone
/// when this returns.
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
///   - body: The test, given the running emulator; its ``ConfigEmulator/baseURL`` is the SDK's base URL.
/// - Returns: What `body` returns.
/// - Throws: ``EmulatorError`` when the emulator cannot start, or what `body` throws.
public func withEmulator<Result>(
    configs: [EmulatedConfig] = [],
    sdkKey: String = "test-sdk-key",
    heartbeatInterval: TimeInterval = 15,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ConfigEmulator) async throws -> Result
) async throws -> Result {
    let configuration = EmulatorConfiguration(
        port: 0, sdkKey: sdkKey, document: ConfigsDocument(configs: configs), heartbeatInterval: heartbeatInterval
    )
    return try await withEmulator(configuration: configuration, body)
}

/// Runs `body` with an emulator started with `configuration`, and stops it afterwards, whether `body`
/// returns or throws; use it to change limits, attach a logger or watch a file.
/// - Parameters:
///   - configuration: The emulator's configuration; give port 0 for an ephemeral port.
///   - body: The test, given the running emulator.
/// - Returns: What `body` returns.
/// - Throws: ``EmulatorError`` when the emulator cannot start, or what `body` throws.
public func withEmulator<Result>(
    configuration: EmulatorConfiguration,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ConfigEmulator) async throws -> Result
) async throws -> Result {
    let emulator = ConfigEmulator(configuration: configuration)
    try emulator.start()
    defer { emulator.stop() }
    return try await body(emulator)
}
