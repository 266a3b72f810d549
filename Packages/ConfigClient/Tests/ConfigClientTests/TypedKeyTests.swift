@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// A config value type of the app's, read from a string config.
private struct Greeting: ConfigValue {
    static var configValueKind: ConfigValueKind { .string }
    let text: String
    init(text: String) { self.text = text }
    init?(configValue: String) {
        guard !configValue.isEmpty else { return nil }
        text = configValue
    }
}

private struct Theme: Decodable, Equatable, Sendable {
    let primary: String
    static let fallback = Theme(primary: "none")
}

extension ConfigKeys {
    fileprivate static let darkMode = ConfigKey("dark-mode", default: false)
    fileprivate static let maxItems = ConfigKey("max-items", default: 1)
    fileprivate static let ratio = ConfigKey("ratio", default: 0.0)
    fileprivate static let greeting = ConfigKey("greeting", default: "none")
    fileprivate static let customGreeting = ConfigKey("greeting", default: Greeting(text: "none"))
    fileprivate static let emptyGreeting = ConfigKey("empty", default: Greeting(text: "none"))
    fileprivate static let theme = JSONConfigKey("theme", as: Theme.self, default: .fallback)
    fileprivate static let missing = ConfigKey("not-served", default: 7)
    fileprivate static let greetingAsInt = ConfigKey("greeting", default: 3)
}

@Suite("Typed keys", .timeLimit(.minutes(1)))
struct TypedKeyTests {
    @Test("a key reads its config as its type, by value(for:) and by subscript")
    func readsEachType() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        let client = fixture.client
        #expect(client.value(for: .darkMode) == false)
        await client.initialize()

        let darkMode: Bool = client.value(for: .darkMode)
        let maxItems: Int = client[.maxItems]
        let ratio: Double = client.value(for: .ratio)
        let greeting: String = client[.greeting]
        let theme: Theme = client.value(for: .theme)
        #expect(darkMode == true)
        #expect(maxItems == 20)
        #expect(ratio == 2.5)
        #expect(greeting == "hello")
        #expect(client.value(for: .customGreeting) == Greeting(text: "hello"))
        #expect(client[.emptyGreeting] == Greeting(text: "none"))
        #expect(theme == Theme(primary: "#101010"))
        #expect(client[.theme] == theme)
        #expect(client.value(for: .missing) == 7)
    }

    @Test("a key's evaluation is value(for:default:)'s: the same evaluations are published")
    func sameEvaluations() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        let client = fixture.client
        var evaluations = client.evaluations.makeAsyncIterator()
        await client.initialize()

        let pairs: [(typed: () -> Void, plain: () -> Void)] = [
            ({ client.value(for: .darkMode) }, { client.value(for: "dark-mode", default: false) }),
            ({ client.value(for: .greetingAsInt) }, { client.value(for: "greeting", default: 3) }),
            ({ client.value(for: .missing) }, { client.value(for: "not-served", default: 7) }),
            ({ client.value(for: .emptyGreeting) }, { client.value(for: "empty", default: Greeting(text: "none")) }),
            ({ client.value(for: .theme) }, { client.value(for: "theme", as: Theme.self, default: .fallback) }),
        ]
        for pair in pairs {
            pair.typed()
            pair.plain()
            let typed = try #require(await evaluations.next())
            let plain = try #require(await evaluations.next())
            #expect(typed == plain)
        }
    }

    @Test("a key's evaluations are counted in the same telemetry aggregate as value(for:default:)'s")
    func sameTelemetry() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        for _ in 0..<5 {
            fixture.client.value(for: .darkMode)
            fixture.client.value(for: "dark-mode", default: false)
            fixture.client.value(for: .greetingAsInt)
            fixture.client.value(for: "greeting", default: 3)
        }
        let events = try await flushedBatch(fixture).evaluatedConfigs
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0.count == 10 })
        #expect(events.first { $0.event.key == "greeting" }?.event.reason == .invalidNumber)
    }

    @Test("values(for:) of a key streams as values(for:default:) does, the default when the config is removed")
    func streams() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        var greetings = fixture.client.values(for: .greeting).makeAsyncIterator()
        var themes = fixture.client.values(for: .theme).makeAsyncIterator()
        #expect(await greetings.next() == "none")
        #expect(await themes.next() == .fallback)

        await fixture.client.initialize()
        #expect(await greetings.next() == "hello")
        #expect(await themes.next() == Theme(primary: "#101010"))

        try fixture.server.serve(.strings(["greeting": "hi"]))
        #expect(await greetings.next() == "hi")
        try fixture.server.serve(.strings(["other": "x"], kind: .full))
        #expect(await greetings.next() == "none")
        #expect(await themes.next() == .fallback)
    }
}
