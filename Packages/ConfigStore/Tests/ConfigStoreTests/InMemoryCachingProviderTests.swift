@_spi(Internal) import ConfigStore
import Testing

@Suite("In-memory caching provider", .timeLimit(.minutes(1)))
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

    @Test("keeps the instance id in one sibling entry of its own")
    func instanceIDSibling() throws {
        let provider = InMemoryCachingProvider()
        let sibling = provider.instanceIDProvider()
        try sibling.write("instance")
        #expect(try provider.instanceIDProvider().read() == "instance")
        #expect(provider.read() == nil)
        provider.write("entry")
        #expect(try sibling.read() == "instance")
    }
}
