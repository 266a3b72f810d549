@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Values kept on the device", .timeLimit(.minutes(1)))
struct KeptValuesTests {
    @Test(
        "a second launch serves the kept values, stale and not ready, until live values replace them (a first delta too)",
        arguments: [ConfigSet.Kind.full, .delta])
    func servedOnNextLaunch(liveKind: ConfigSet.Kind) async throws {
        let provider = InMemoryCachingProvider()
        let user = ConfigDirectorContext(id: "user-1")
        #expect(try await keepSampleValues(in: provider, for: user))

        let second = try ClientFixture(answer: .hold, caching: CachingOptions(provider: provider))
        defer { second.client.close() }
        var events = second.client.events.makeAsyncIterator()
        let initialization = Task { await second.client.initialize(context: user) }
        guard case .configsUpdated = await events.next() else {
            Issue.record("expected configsUpdated when the kept values load")
            return
        }
        #expect(second.client.valueSource == .keptValues)
        #expect(second.client.value(for: "greeting", default: "") == "hello")
        #expect(!second.client.isReady)
        #expect(await eventually { second.clock.sleeperCount == 2 })
        second.clock.advance(by: 3)
        await initialization.value
        #expect(!second.client.isReady)
        #expect(second.logger.messages(at: .warn).contains { $0.contains("kept on the device") })

        try second.transport.deliver(.strings(["greeting": "live"], kind: liveKind))
        #expect(second.client.valueSource == .live)
        #expect(second.client.isReady)
        #expect(second.client.value(for: "greeting", default: "") == "live")
        #expect(second.client.value(for: "dark-mode", default: false) == false)
    }

    @Test("kept values of another context are not served")
    func otherContext() async throws {
        let provider = InMemoryCachingProvider()
        #expect(try await keepSampleValues(in: provider, for: ConfigDirectorContext(id: "user-1")))
        let second = try ClientFixture(answer: .hold, caching: CachingOptions(provider: provider))
        defer { second.client.close() }
        let initialization = Task { await second.client.initialize(context: ConfigDirectorContext(id: "user-2")) }
        #expect(await eventually { second.clock.sleeperCount == 2 })
        await second.client.keptValuesLoaded()
        #expect(second.client.valueSource == .none)
        second.clock.advance(by: 3)
        await initialization.value
    }

    @Test("nothing is kept when caching is off")
    func disabled() async throws {
        let provider = InMemoryCachingProvider()
        let fixture = try ClientFixture(caching: CachingOptions(enabled: false, provider: provider))
        await fixture.client.initialize()
        // After the tail of closing, the last write of the kept values is done.
        await fixture.client.closeAndWait()
        #expect(provider.read() == nil)
    }
}
