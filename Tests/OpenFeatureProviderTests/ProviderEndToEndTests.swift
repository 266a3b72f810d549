#if OpenFeature
import Combine
@_spi(Internal) @_spi(Locking) import ConfigDirector
import ConfigDirectorOpenFeatureProvider
import ConfigEmulator
import Foundation
import OpenFeature
import EmulatorTestSupport
import Testing

/// The provider with a client it creates, over HTTP against the emulator on loopback: its identity on
/// the wire and in telemetry, values kept on the device, and release.
@Suite("The provider against the emulator", .timeLimit(.minutes(1)))
struct ProviderEndToEndTests {
    private static let sdkKey = "YOUR-CLIENT-SDK-KEY"
    private static let configs = [
        EmulatedConfig(key: "dark-mode", type: .boolean, value: true),
        EmulatedConfig(key: "theme", type: .json, value: ["primary": "#fafafa", "corner": nil]),
    ]

    private static func options(
        _ emulator: ConfigEmulator,
        timeout: Double = 2,
        caching: CachingOptions = CachingOptions(enabled: false)
    ) -> ConfigDirectorClientOptions {
        ConfigDirectorClientOptions(
            metadata: ConfigDirectorMetaContext(appName: "OpenFeatureProviderTests", appVersion: "1.0"),
            connection: ConnectionOptions(timeout: timeout, baseURL: emulator.baseURL),
            logger: ConsoleLogger(level: .off),
            caching: caching
        )
    }

    /// The `metaContext` member of a request body.
    private static func metaContext(of body: JSONValue) -> [String: JSONValue]? {
        guard case .dictionary(let members) = body, case .dictionary(let meta)? = members["metaContext"] else {
            return nil
        }
        return meta
    }

    @Test("the client it creates reports swift-openfeature-client-provider on the wire and in telemetry")
    func identity() async throws {
        try await withEmulator(configs: Self.configs, sdkKey: Self.sdkKey) { emulator in
            let provider = try ConfigDirectorProvider(clientSDKKey: Self.sdkKey, options: Self.options(emulator))
            let api = OpenFeatureAPI()
            await api.setProviderAndWait(provider: provider, initialContext: ImmutableContext(targetingKey: "user-1"))
            #expect(api.getProviderStatus() == .ready)
            #expect(api.getClient().getBooleanValue(key: "dark-mode", defaultValue: false))
            #expect(
                api.getClient().getObjectValue(key: "theme", defaultValue: .null)
                    == .structure(["primary": .string("#fafafa"), "corner": .null]))
            provider.close()
            #expect(await waitUntil { !emulator.telemetryBatches().isEmpty })

            let connect = try #require(emulator.recordedRequests(path: "/client/sse/v1").first)
            let meta = Self.metaContext(of: try JSONValue(parsing: connect.bodyText))
            #expect(meta?["sdkName"] == "swift-openfeature-client-provider")
            #expect(meta?["sdkVersion"] == .string(ConfigDirectorSDK.version))
            let batch = try #require(emulator.telemetryBatches().first)
            #expect(Self.metaContext(of: batch.body)?["sdkName"] == "swift-openfeature-client-provider")
            #expect(batch.context == ConfigDirectorContext(id: "user-1"))
        }
    }

    @Test("releasing the provider after clearProvider() closes its connection and reports the telemetry left")
    func releaseCloses() async throws {
        try await withEmulator(configs: Self.configs, sdkKey: Self.sdkKey) { emulator in
            let api = OpenFeatureAPI()
            weak var released: ConfigDirectorProvider?
            do {
                let provider = try ConfigDirectorProvider(clientSDKKey: Self.sdkKey, options: Self.options(emulator))
                released = provider
                await api.setProviderAndWait(provider: provider, initialContext: ImmutableContext(targetingKey: "u"))
                #expect(api.getClient().getBooleanValue(key: "dark-mode", defaultValue: false))
            }
            #expect(emulator.openStreams().count == 1)

            api.clearProvider()

            #expect(await waitUntil { released == nil })
            #expect(await waitUntil { emulator.openStreams().isEmpty })
            #expect(await waitUntil { !emulator.telemetryBatches().isEmpty })
        }
    }

    @Test(
        "values kept on the device are stale (resolved as cached) from the moment they load and after a timeout's error; live values give ready"
    )
    func keptValuesAreStale() async throws {
        let store = InMemoryCachingProvider()
        try await withEmulator(configs: Self.configs, sdkKey: Self.sdkKey) { emulator in
            let first = try ConfigDirectorProvider(
                clientSDKKey: Self.sdkKey, options: Self.options(emulator, caching: CachingOptions(provider: store)))
            let firstAPI = OpenFeatureAPI()
            await firstAPI.setProviderAndWait(provider: first, initialContext: ImmutableContext(targetingKey: "u"))
            #expect(firstAPI.getProviderStatus() == .ready)
            first.close()
            #expect(await waitUntil { store.read() != nil })

            _ = emulator.setValue(false, forKey: "dark-mode")
            emulator.inject(.stall(seconds: 1.5, path: "/client/sse/v1"))
            let provider = try ConfigDirectorProvider(
                clientSDKKey: Self.sdkKey,
                options: Self.options(emulator, timeout: 0.3, caching: CachingOptions(provider: store))
            )
            let api = OpenFeatureAPI()
            let kinds = Locked<[String]>([])
            let subscription = api.observe().sink { event in
                let name = "\(event)".prefix { $0 != "(" }
                kinds.withLock { $0.append(String(name)) }
            }
            defer { subscription.cancel() }

            await api.setProviderAndWait(provider: provider, initialContext: ImmutableContext(targetingKey: "u"))

            #expect(api.getProviderStatus() == .stale)
            #expect(api.getClient().getBooleanValue(key: "dark-mode", defaultValue: false))
            let kept = api.getClient().getBooleanDetails(key: "dark-mode", defaultValue: false)
            #expect(kept.reason == Reason.cached.rawValue)
            #expect(kept.flagMetadata["valueSource"] == .string("kept"))
            // The stale after the error is sent with it, and delivered on OpenFeature's queue after it.
            #expect(await waitUntil { kinds.withLock { $0.filter { $0 != "configurationChanged" }.count >= 3 } })
            let untilError = kinds.withLock { $0 }
            #expect(untilError.filter { $0 != "configurationChanged" } == ["stale", "error", "stale"])

            #expect(await waitUntil { api.getProviderStatus() == .ready })
            #expect(!api.getClient().getBooleanValue(key: "dark-mode", defaultValue: true))
            let live = api.getClient().getBooleanDetails(key: "dark-mode", defaultValue: true)
            #expect(live.reason == Reason.unknown.rawValue)
            #expect(live.flagMetadata["valueSource"] == .string("live"))
            #expect(
                kinds.withLock { $0.filter { $0 != "configurationChanged" } } == ["stale", "error", "stale", "ready"])
            provider.close()
        }
    }
}

/// Waits in short sleeps until `condition` holds, for at most ten seconds; for what has no event.
private func waitUntil(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
}
#endif
