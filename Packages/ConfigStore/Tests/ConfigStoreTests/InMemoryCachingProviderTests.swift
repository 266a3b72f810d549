import ConfigStore
import Testing

@Suite("In-memory caching provider")
struct InMemoryCachingProviderTests {
    @Test("reads back what it wrote until it is removed")
    func roundTrip() {
        let provider = InMemoryCachingProvider()
        #expect(provider.read() == nil)
        provider.write("entry")
        #expect(provider.read() == "entry")
        provider.remove()
        #expect(provider.read() == nil)
        #expect(provider.sizeLimit() == 256 * 1024)
    }
}
