@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Testing) import ConfigTesting
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// `UpdatePolicy.onActivate` through the public API: values received mid-session wait for `activate()`.
@Suite("Update policy", .timeLimit(.minutes(1)))
struct UpdatePolicyTests {
    @Test("values received mid-session wait for activate(), which applies them once and reports the change")
    func pendingValuesApplyOnActivate() async throws {
        let fixture = try ClientFixture(updatePolicy: .onActivate)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        var greetings = client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await greetings.next() == "hello")
        var events = client.events.makeAsyncIterator()

        try fixture.server.serve(.strings(["greeting": "bonjour"]))
        try fixture.server.serve(.strings(["ratio": "3.5"]))
        #expect(await eventually { client.hasPendingValues })
        #expect(client.value(for: "greeting", default: "none") == "hello")
        #expect(client.value(for: "ratio", default: 0.0) == 2.5)

        #expect(client.activate())
        // No configsUpdated came before the activation's, which carries both pending changes.
        #expect(await events.next() == .configsUpdated(ConfigsUpdate(keys: ["greeting", "ratio"])))
        #expect(await greetings.next() == "bonjour")
        #expect(client.value(for: "ratio", default: 0.0) == 3.5)
        #expect(!client.hasPendingValues)
        #expect(!client.activate())

        // A set that changes nothing is pending too, and its activation reports no change.
        try fixture.server.serve(.strings(["greeting": "bonjour"]))
        #expect(await eventually { client.hasPendingValues })
        #expect(!client.activate())
    }

    @Test("the connection's health says when pending values arrived; their activation is no arrival")
    func pendingValuesArriveInTheHealth() async throws {
        let fixture = try ClientFixture(updatePolicy: .onActivate)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        let connected = try #require(client.connectionHealth.lastValuesReceived)
        fixture.clock.advance(by: 5)
        try fixture.server.serve(.strings(["greeting": "bonjour"]))
        let arrived = try #require(client.connectionHealth.lastValuesReceived)
        #expect(arrived == connected.addingTimeInterval(5))
        fixture.clock.advance(by: 5)
        #expect(client.activate())
        #expect(client.connectionHealth.lastValuesReceived == arrived)
    }

    @Test("a newer full set supersedes the pending values; a delta after it merges into it")
    func newerSetSupersedes() async throws {
        let fixture = try ClientFixture(updatePolicy: .onActivate)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        let server = try fixture.server
        server.serve(.strings(["greeting": "bonjour"]))
        server.serve(.strings(["greeting": "hallo", "only": "new"], kind: .full))
        server.serve(.strings(["only": "newer"]))
        // The in-memory server delivers as it serves: every set has arrived.
        #expect(client.hasPendingValues)
        #expect(client.activate())
        #expect(client.snapshot().configs.map(\.key) == ["greeting", "only"])
        #expect(client.value(for: "only", default: "") == "newer")
        #expect(client.value(for: "greeting", default: "") == "hallo")
    }

    @Test("the values of updateContext apply at once and drop the pending ones; resumeNetwork's wait")
    func connectsApplyAtOnce() async throws {
        let fixture = try ClientFixture(updatePolicy: .onActivate)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        let server = try fixture.server
        server.serve(.strings(["greeting": "bonjour"]))
        #expect(await eventually { client.hasPendingValues })

        await client.updateContext(ConfigDirectorContext(id: "user-2"))
        #expect(client.isReady)
        #expect(client.value(for: "greeting", default: "") == "bonjour")
        #expect(!client.hasPendingValues)

        client.pauseNetwork()
        server.serve(.strings(["greeting": "hallo"]))
        await client.resumeNetwork()
        #expect(client.isReady)
        #expect(client.hasPendingValues)
        #expect(client.value(for: "greeting", default: "") == "bonjour")
        #expect(client.activate())
        #expect(client.value(for: "greeting", default: "") == "hallo")
    }

    @Test("pending values are written to the device at once: the next launch serves them")
    func pendingValuesAreKept() async throws {
        let provider = InMemoryCachingProvider()
        let first = try ClientFixture(caching: CachingOptions(provider: provider), updatePolicy: .onActivate)
        await first.client.initialize()
        // The values of initialize are written first; a later save waits KeptValuesStore.minimumWriteInterval (5 s)
        // after that write, but pending values are written at once: a crash now loses nothing.
        #expect(await eventually { provider.read()?.contains("hello") == true })
        try first.server.serve(.strings(["greeting": "bonjour"]))
        #expect(await eventually { first.client.hasPendingValues })
        #expect(await eventually(timeout: 3) { provider.read()?.contains("bonjour") == true })
        first.client.close()

        let next = try ClientFixture(
            answer: .hold, caching: CachingOptions(provider: provider), updatePolicy: .onActivate)
        defer { next.client.close() }
        Task { [client = next.client] in await client.initialize() }
        #expect(await eventually { next.client.valueSource == .keptValues })
        #expect(next.client.value(for: "greeting", default: "") == "bonjour")
    }

    @Test("by default, values apply as they arrive and nothing waits")
    func liveByDefault() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var greetings = fixture.client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await greetings.next() == "hello")
        try fixture.server.serve(.strings(["greeting": "bonjour"]))
        #expect(await greetings.next() == "bonjour")
        #expect(!fixture.client.hasPendingValues)
        #expect(!fixture.client.activate())
    }
}
