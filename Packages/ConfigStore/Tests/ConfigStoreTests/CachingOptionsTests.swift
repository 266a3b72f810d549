@_spi(Internal) import ConfigModel
import Foundation
import Testing

@_spi(Internal) @testable import ConfigStore

@Suite("Caching options", .timeLimit(.minutes(1)))
struct CachingOptionsTests {
    #if canImport(Darwin)
    @Test("default to on, with the UserDefaults entry of the client's SDK key")
    func defaults() throws {
        let options = CachingOptions()
        #expect(options.enabled)
        #expect(options.provider == nil)
        let resolved = options.resolvedProvider(forClientSDKKey: Fixtures.sdkKey)
        let provider = try #require(resolved as? UserDefaultsCachingProvider)
        #expect(provider.key == "com.configdirector.cache." + Fixtures.sdkKeyDigest)
        #expect(!provider.key.contains(Fixtures.sdkKey))
        #expect(provider.sizeLimit() == 256 * 1024)
    }
    #else
    @Test("default to on, on Linux with the file of the client's SDK key in the default folder")
    func defaults() throws {
        let options = CachingOptions()
        #expect(options.enabled)
        #expect(options.provider == nil)
        let resolved = options.resolvedProvider(forClientSDKKey: Fixtures.sdkKey)
        let provider = try #require(resolved as? FileCachingProvider)
        #expect(provider.fileURL.lastPathComponent == "values-" + Fixtures.sdkKeyDigest + ".json")
        #expect(provider.fileURL.deletingLastPathComponent() == FileCachingProvider.defaultDirectory())
        #expect(provider.sizeLimit() == FileCachingProvider.defaultSizeLimit)
        // A provider that keeps no instance id of its own leaves it to a file of the default folder.
        let custom = try #require(BareProvider().instanceIDProvider() as? FileCachingProvider)
        #expect(custom.fileURL.lastPathComponent == FileCachingProvider.instanceIDFileName)
        #expect(custom.fileURL.deletingLastPathComponent() == FileCachingProvider.defaultDirectory())
    }

    private struct BareProvider: CachingProvider {
        func read() -> String? { nil }
        func write(_ entry: String) {}
        func remove() {}
        func sizeLimit() -> Int { 0 }
    }
    #endif

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
