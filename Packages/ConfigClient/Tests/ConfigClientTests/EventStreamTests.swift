@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Event streams", .timeLimit(.minutes(1)))
struct EventStreamTests {
    @Test("each access is an independent stream")
    func independentStreams() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        var first = fixture.client.events.makeAsyncIterator()
        var second = fixture.client.events.makeAsyncIterator()
        await fixture.client.initialize()
        #expect(await first.next() == .contextUpdated(nil))
        #expect(await second.next() == .contextUpdated(nil))
    }

    @Test("a slow consumer keeps the newest 256 events")
    func keepsNewest256() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var events = fixture.client.events.makeAsyncIterator()
        let server = try fixture.server
        for index in 0..<300 { server.serve(.strings(["counter": "\(index)"])) }

        let first = await events.next()
        #expect(first == .configsUpdated(ConfigsUpdate(keys: ["counter"])))
        var received = 1
        fixture.client.close()
        while await events.next() != nil { received += 1 }
        #expect(received == 256)
    }

    @Test("configsUpdated lists the keys a full set removed")
    func removedKeys() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var events = fixture.client.events.makeAsyncIterator()

        try fixture.server.serve(.strings(["greeting": "hi", "extra": "x"], kind: .full))
        let removed = ConfigSet.sample.configs.keys.filter { $0 != "greeting" }.sorted().names
        #expect(
            await events.next() == .configsUpdated(ConfigsUpdate(keys: ["extra", "greeting"], removedKeys: removed)))
    }

    @Test("closing finishes every stream")
    func closeFinishes() async throws {
        let fixture = try ClientFixture()
        var events = fixture.client.events.makeAsyncIterator()
        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        fixture.client.close()
        #expect(await events.next() == nil)
        #expect(await evaluations.next() == nil)
        var late = fixture.client.events.makeAsyncIterator()
        #expect(await late.next() == nil)
    }
}
