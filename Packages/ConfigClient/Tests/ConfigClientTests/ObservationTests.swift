@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
import Foundation
import ModelTestSupport
import Observation
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

extension ConfigKeys {
    fileprivate static let observedGreeting = ConfigKey("greeting", default: "none")
    fileprivate static let observedDarkMode = ConfigKey("dark-mode", default: false)
    fileprivate static let observedTheme = JSONConfigKey("theme", as: ObservedTheme.self, default: .fallback)
}

private struct ObservedTheme: Decodable, Equatable, Sendable {
    let primary: String
    static let fallback = ObservedTheme(primary: "none")
}

/// A string config whose parse reads the client, as an app's type may.
private struct GreetingReadingTheClient: ConfigValue {
    /// The client the parse reads, set by the test that uses this type.
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
        darkMode = Self.client.withLock { $0 }?.value(for: "dark-mode", default: false) ?? false
    }
}

@Suite("Observed configs", .timeLimit(.minutes(1)))
struct ObservationTests {
    @MainActor
    @Test("an observed config holds the current value at once, then changes with the evaluated value")
    func followsChanges() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        let greeting = ObservedConfig(.observedGreeting, client: fixture.client)
        #expect(greeting.value == "none")
        #expect(greeting.key == "greeting")

        var change = Change { _ = greeting.value }
        await fixture.client.initialize()
        await change.wait()
        #expect(greeting.value == "hello")

        let ready = ObservedConfig(.observedGreeting, client: fixture.client)
        #expect(ready.value == "hello")

        change = Change { _ = greeting.value }
        try fixture.server.serve(.strings(["greeting": "hi"]))
        await change.wait()
        #expect(greeting.value == "hi")
    }

    @MainActor
    @Test("an observed JSON config and a config read by name follow their values")
    func jsonAndName() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let theme = ObservedConfig(.observedTheme, client: fixture.client)
        let items = ObservedConfig("max-items", default: 1, client: fixture.client)
        #expect(theme.value == ObservedTheme(primary: "#101010"))
        #expect(items.value == 20)

        let themeChange = Change { _ = theme.value }
        let itemsChange = Change { _ = items.value }
        try fixture.server.serve(
            ConfigSet(
                kind: .delta,
                configs: [
                    "theme": ConfigState(type: .json, value: ##"{"primary":"#ffffff"}"##),
                    "max-items": ConfigState(type: .integer, value: "30"),
                ]
            )
        )
        await themeChange.wait()
        await itemsChange.wait()
        #expect(theme.value == ObservedTheme(primary: "#ffffff"))
        #expect(items.value == 30)
    }

    @MainActor
    @Test("an equal value changes nothing: a key not changed is not re-rendered when another key is")
    func equalValueChangesNothing() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let configs = ObservedConfigs(client: fixture.client)
        #expect(configs[.observedGreeting] == "hello")
        #expect(configs[.observedDarkMode] == true)

        // The values of one object are taken in the order the client evaluated them: once dark mode's
        // change is taken, any change of the greeting (its first value again, or the same value
        // served again) would have been taken before it.
        let greeting = Change { _ = configs[.observedGreeting] }
        let darkMode = Change { _ = configs[.observedDarkMode] }
        let server = try fixture.server
        server.serve(.strings(["greeting": "hello"]))
        server.serve(ConfigSet(kind: .delta, configs: ["dark-mode": ConfigState(type: .boolean, value: "false")]))
        await darkMode.wait()
        #expect(configs[.observedDarkMode] == false)
        #expect(!greeting.hasFired)
        #expect(configs[.observedGreeting] == "hello")
    }

    @MainActor
    @Test("a full set without the key gives the default; an updated context gives its values")
    func removalAndContext() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let configs = ObservedConfigs(client: fixture.client)
        #expect(configs[.observedGreeting] == "hello")

        var change = Change { _ = configs[.observedGreeting] }
        try fixture.transport.deliver(.strings(["other": "x"], kind: .full))
        await change.wait()
        #expect(configs[.observedGreeting] == "none")

        change = Change { _ = configs[.observedGreeting] }
        try fixture.transport.answerEveryConnect(.deliver(.strings(["greeting": "g'day"], kind: .full)))
        await fixture.client.updateContext(ConfigDirectorContext(id: "user-2"))
        await change.wait()
        #expect(configs[.observedGreeting] == "g'day")
    }

    @MainActor
    @Test("a released observed config stops following: its key is no longer evaluated on a change")
    func stopsWhenReleased() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        weak var released: ObservedConfig<String>?
        weak var releasedSet: ObservedConfigs?
        do {
            let greeting = ObservedConfig(.observedGreeting, client: fixture.client)
            let configs = ObservedConfigs(client: fixture.client)
            #expect(configs[.observedGreeting] == "hello")
            released = greeting
            releasedSet = configs
            #expect(await evaluations.next()?.key == "greeting")
            #expect(await evaluations.next()?.key == "greeting")
        }
        #expect(released == nil)
        #expect(releasedSet == nil)

        // A watcher still registered would evaluate the greeting while the delta is applied, before
        // the read below.
        try fixture.server.serve(.strings(["greeting": "hi"]))
        fixture.client.value(for: "dark-mode", default: false)
        #expect(await evaluations.next()?.key == "dark-mode")
    }

    @MainActor
    @Test("an observed config of a closed client holds the value evaluated once")
    func closedClient() async throws {
        let fixture = try ClientFixture()
        await fixture.client.initialize()
        fixture.client.close()
        let greeting = ObservedConfig(.observedGreeting, client: fixture.client)
        let configs = ObservedConfigs(client: fixture.client)
        #expect(greeting.value == "none")
        #expect(configs[.observedDarkMode] == false)
    }

    @MainActor
    @Test("an observed type whose parse reads the client gets its values: no app code runs under the lock")
    func parseReadsTheClient() async throws {
        let fixture = try ClientFixture()
        await fixture.client.initialize()
        GreetingReadingTheClient.client.withLock { $0 = fixture.client }
        defer { GreetingReadingTheClient.client.withLock { $0 = nil } }
        let greeting = ObservedConfig(
            "greeting", default: GreetingReadingTheClient(text: "", darkMode: false), client: fixture.client)
        #expect(greeting.value == GreetingReadingTheClient(text: "hello", darkMode: true))

        let change = Change { _ = greeting.value }
        let server = try fixture.server
        let delivered = Protected(false)
        // On a thread of its own, so that a parse waiting on the client's lock fails the test instead of
        // hanging it.
        Thread {
            server.serve(.strings(["greeting": "bonjour"]))
            delivered.withLock { $0 = true }
        }.start()
        try #require(
            await eventually { @Sendable in delivered.withLock { $0 } }, "applying a delta waited on the client's lock")
        await change.wait()
        #expect(greeting.value == GreetingReadingTheClient(text: "bonjour", darkMode: true))
        fixture.client.close()
    }
}
