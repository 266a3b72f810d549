#if OpenFeature
import ConfigDirectorOpenFeatureProvider
import OpenFeature
import Testing

// The provider's import and OpenFeature's, as the provider page says: "configuring it needs no second import".

@Suite("import ConfigDirectorOpenFeatureProvider", .timeLimit(.minutes(1)))
struct ProviderImportsTests {
    @Test("reaches the provider and every type that configures its client")
    func configurationTypes() async throws {
        let logger: any ConfigDirectorLogger = ConsoleLogger(level: ConfigDirectorLogLevel.off)
        let store: any CachingProvider = InMemoryCachingProvider()
        let value: ServedValue = true
        let options = ConfigDirectorClientOptions(
            metadata: ConfigDirectorMetaContext(appName: "App", appVersion: "1.0"),
            connection: ConnectionOptions(mode: ConnectionMode.offline),
            logger: logger,
            caching: CachingOptions(enabled: false, provider: store),
            values: ["beta": value]
        )
        let provider = try ConfigDirectorProvider(options: options)
        let api = OpenFeatureAPI()
        await api.setProviderAndWait(provider: provider)
        #expect(api.getClient().getBooleanValue(key: "beta", defaultValue: false))
        provider.close()
        #expect(throws: ConfigDirectorError.missingClientSDKKey) { try ConfigDirectorProvider(clientSDKKey: "") }
    }
}
#endif
