@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// A watched type whose parse reads the client, as an app's type may: the client must not hold its
/// lock while the app's code runs, or the read would wait for it forever.
private struct GreetingWithMode: ConfigValue, Equatable {
    static let client = Protected<ConfigDirectorClient?>(nil)
    static var configValueKind: ConfigValueKind { .string }

    let text: String
    let darkMode: Bool

    init(text: String, darkMode: Bool) {
        self.text = text
        self.darkMode = darkMode
    }

    init?(configValue: String) {
        text = configValue
        darkMode = Self.client.current?.value(for: "dark-mode", default: false) ?? false
    }
}

@Suite("Watching values with the app's code", .timeLimit(.minutes(1)))
struct WatchReentrancyTests {
    @Test("a watched type whose parse reads the client gets its values")
    func parseReadsTheClient() async throws {
        let fixture = try ClientFixture()
        await fixture.client.initialize()
        GreetingWithMode.client.set(fixture.client)
        defer { GreetingWithMode.client.set(nil) }

        // On threads of their own, so that a parse waiting on the client's lock fails the test
        // instead of hanging it.
        let stream = Protected<AsyncStream<GreetingWithMode>?>(nil)
        Thread {
            stream.set(fixture.client.values(for: "greeting", default: GreetingWithMode(text: "", darkMode: false)))
        }.start()
        try #require(await eventually { stream.current != nil }, "values(for:) waited on the client's lock")
        var values = try #require(stream.current).makeAsyncIterator()
        #expect(await values.next() == GreetingWithMode(text: "hello", darkMode: true))

        let server = try fixture.server
        let delivered = Protected(false)
        Thread {
            server.serve(.strings(["greeting": "bonjour"]))
            delivered.set(true)
        }.start()
        try #require(await eventually { delivered.current }, "applying a delta waited on the client's lock")
        #expect(await values.next() == GreetingWithMode(text: "bonjour", darkMode: true))
        // Not deferred: after a failure above, a thread may hold the lock for good, and closing would wait on it.
        fixture.client.close()
    }
}
