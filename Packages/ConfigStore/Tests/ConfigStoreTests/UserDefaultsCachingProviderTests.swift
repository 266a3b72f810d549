@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
import Foundation
import ModelTestSupport
import Testing

@Suite("UserDefaults caching provider", .timeLimit(.minutes(1)))
struct UserDefaultsCachingProviderTests {
    @Test("reads back what it wrote, under a key derived from the SHA-256 of the SDK key")
    func roundTrip() throws {
        let suite = try TemporaryDefaults()
        defer { suite.remove() }
        let provider = UserDefaultsCachingProvider(clientSDKKey: Fixtures.sdkKey, defaults: suite.defaults)
        #expect(provider.read() == nil)
        provider.write("entry")
        #expect(provider.read() == "entry")
        let expectedKey = "com.configdirector.cache." + Fixtures.sdkKeyDigest
        #expect(provider.key == expectedKey)
        #expect(suite.defaults.string(forKey: expectedKey) == "entry")
        provider.remove()
        #expect(provider.read() == nil)
        provider.remove()
        #expect(provider.sizeLimit() == 256 * 1024)
    }

    @Test("keeps each SDK key's entry apart, and the instance id under its own key")
    func separateEntries() throws {
        let suite = try TemporaryDefaults()
        defer { suite.remove() }
        let provider = UserDefaultsCachingProvider(clientSDKKey: Fixtures.sdkKey, defaults: suite.defaults)
        let other = UserDefaultsCachingProvider(clientSDKKey: Fixtures.otherSDKKey, defaults: suite.defaults)
        provider.write("mine")
        other.write("theirs")
        try provider.instanceIDProvider().write("instance")
        #expect(provider.read() == "mine")
        #expect(other.read() == "theirs")
        #expect(suite.defaults.string(forKey: UserDefaultsCachingProvider.instanceIDKey) == "instance")
        #expect(try other.instanceIDProvider().read() == "instance")
    }

    @Test("stores nothing that contains the raw SDK key, through the store")
    func rawKeyNeverStored() async throws {
        let suite = try TemporaryDefaults()
        defer { suite.remove() }
        let provider = UserDefaultsCachingProvider(clientSDKKey: Fixtures.sdkKey, defaults: suite.defaults)
        let store = KeptValuesStore(
            clientSDKKey: Fixtures.sdkKey,
            options: CachingOptions(provider: provider),
            logger: RecordingLogger()
        )
        store.save(Fixtures.configSet(), for: Fixtures.ada)
        store.save(Fixtures.configSet(revision: 2), for: nil)
        await store.close()
        _ = await store.instanceID()

        let domain = try #require(suite.defaults.persistentDomain(forName: suite.suiteName))
        #expect(domain.count == 2)
        for (key, value) in domain {
            #expect(!key.contains(Fixtures.sdkKey))
            #expect(!String(describing: value).contains(Fixtures.sdkKey))
            #expect(!String(describing: value).isEmpty)
        }
    }
}
