@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Closing the client", .timeLimit(.minutes(1)))
struct CloseTests {
    @Test("close ends the connection and every stream, is idempotent, and leaves defaults")
    func closeEndsEverything() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        await fixture.client.initialize()
        var watch = fixture.client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await watch.next() == "hello")

        fixture.client.close()
        fixture.client.close()
        #expect(await watch.next() == nil)
        #expect(try fixture.transport.closed)
        #expect(fixture.lifecycle.isStopped)
        #expect(fixture.client.value(for: "greeting", default: "none") == "none")
        #expect(!fixture.client.isInitializing)

        await fixture.client.initialize()
        await fixture.client.resumeNetwork()
        #expect(try fixture.transport.contexts.count == 1)
    }

    @Test("a held initialize ended by close returns and logs the timeout warning (the reference page says so)")
    func closeEndsHeldInitialize() async throws {
        let fixture = try ClientFixture(answer: .hold)
        let initialization = Task { await fixture.client.initialize() }
        #expect(await eventually { fixture.clock.sleeperCount == 2 })
        fixture.client.close()
        await initialization.value
        #expect(fixture.logger.messages(at: .warn).contains { $0.contains("keeps retrying") })
    }

    @Test("releasing the last reference closes the client")
    func releaseCloses() async throws {
        let factory: ScriptedTransportFactory
        do {
            let fixture = try ClientFixture(answer: .deliver(.sample))
            factory = try fixture.factory
            await fixture.client.initialize()
        }
        #expect(await eventually { factory.transport?.closed == true })
    }
}
