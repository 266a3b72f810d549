@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
import Testing

@Suite("Caching options")
struct CachingOptionsTests {
    @Test("default to on, with the UserDefaults entry of the client's SDK key")
    func defaults() throws {
        let options = CachingOptions()
        #expect(options.enabled)
        #expect(options.provider == nil)
        let resolved = options.resolvedProvider(forClientSDKKey: Fixtures.sdkKey)
        let provider = try #require(resolved as? UserDefaultsCachingProvider)
        #expect(provider.key == "com.configdirector.cache." + SHA256Digest.hexHash(of: Fixtures.sdkKey))
        #expect(!provider.key.contains(Fixtures.sdkKey))
        #expect(provider.sizeLimit() == 256 * 1024)
    }

    @Test("use the provider given, whatever the SDK key")
    func givenProvider() throws {
        let given = InMemoryCachingProvider()
        let options = CachingOptions(provider: given)
        let resolved = try #require(
            options.resolvedProvider(forClientSDKKey: Fixtures.sdkKey) as? InMemoryCachingProvider
        )
        #expect(resolved === given)
        #expect(CachingOptions(enabled: false).enabled == false)
    }
}
