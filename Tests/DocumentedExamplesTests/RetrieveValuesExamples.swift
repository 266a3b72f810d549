import ConfigDirector
import ConfigEmulator
import Foundation
import Testing

// "Retrieve config values", verbatim.
private func retrieveAndSubscribe(_ client: ConfigDirectorClient) async {
    // Retrieve the current value. The default value decides the type the config
    // is read as, and is returned until the client is ready.
    let darkMode = client.value(for: "my-config-key", default: false)

    // Subscribe to value updates. The stream yields the current value right away
    // and then every time the evaluated value changes.
    for await darkMode in client.values(for: "my-config-key", default: false) {
        print("Value updated: \(darkMode)")
    }
    _ = darkMode
}

private func readEachType(_ client: ConfigDirectorClient) {
    client.value(for: "my-string-config-key", default: "Default")

    client.value(for: "my-integer-config-key", default: 100)

    client.value(for: "my-boolean-config-key", default: false)
}

// "JSON configs", verbatim.
struct Theme: Decodable {
    let primary: String
    let cornerRadius: Double
}

private func readTheme(_ client: ConfigDirectorClient) -> Theme {
    let theme = client.value(
        for: "theme",
        as: Theme.self,
        default: Theme(primary: "#101010", cornerRadius: 8)
    )
    return theme
}

// The streaming counterpart needs `Equatable` and a `.fallback`, which the page leaves to the reader,
// and a `self.theme` to assign.
extension Theme: Equatable {
    static let fallback = Theme(primary: "#000000", cornerRadius: 0)
}

private final class ThemeModel: @unchecked Sendable {
    // Only the test's one task touches `theme`.
    var theme = Theme.fallback

    func follow(_ client: ConfigDirectorClient) async {
        for await theme in client.values(for: "theme", as: Theme.self, default: .fallback) {
            self.theme = theme
        }
    }
}

// "Custom value types", verbatim.
extension Locale: ConfigValue {
    public static var configValueKind: ConfigValueKind { .string }

    public init?(configValue: String) {
        self.init(identifier: configValue)
    }
}

private func readLocale(_ client: ConfigDirectorClient) -> Locale {
    let locale = client.value(for: "default-locale", default: Locale(identifier: "en_US"))
    return locale
}

@Suite("Documented examples: retrieve config values", .timeLimit(.minutes(1)))
struct RetrieveValuesExamples {
    @Test("a read returns the default until the client is ready, then the served value")
    func defaultThenServed() async throws {
        try await withDocumentedClient { client, _ in
            #expect(client.value(for: "my-config-key", default: false) == false)
            #expect(client.value(for: "my-string-config-key", default: "Default") == "Default")
            await client.initialize()
            #expect(client.value(for: "my-config-key", default: false))
            #expect(client.value(for: "my-string-config-key", default: "Default") == "Served")
            #expect(client.value(for: "my-integer-config-key", default: 100) == 250)
            #expect(client.value(for: "my-boolean-config-key", default: false))
            readEachType(client)
        }
    }

    @Test("the stream yields the current value right away, then every change, without repeats")
    func streamYieldsChanges() async throws {
        try await withDocumentedClient { client, emulator in
            await client.initialize()
            var values = client.values(for: "my-config-key", default: false).makeAsyncIterator()
            #expect(await values.next() == true)
            emulator.setValue(true, forKey: "my-config-key")
            emulator.setValue(false, forKey: "my-config-key")
            #expect(await values.next() == false)
            emulator.setValue(true, forKey: "my-config-key")
            #expect(await values.next() == true)
            emulator.removeConfig(forKey: "my-config-key")
            #expect(await values.next() == false)

            let loop = Task { await retrieveAndSubscribe(client) }
            client.close()
            await loop.value
        }
    }

    @Test("a type mismatch returns the default rather than trapping")
    func mismatchReturnsDefault() async throws {
        try await withDocumentedClient { client, _ in
            await client.initialize()
            #expect(client.value(for: "my-string-config-key", default: 100) == 100)
            #expect(client.value(for: "my-boolean-config-key", default: "Default") == "Default")
        }
    }

    @Test("a JSON config decodes into the type asked for, else the default")
    func jsonConfigs() async throws {
        try await withDocumentedClient { client, emulator in
            #expect(readTheme(client).primary == "#101010")
            await client.initialize()
            let theme = readTheme(client)
            #expect(theme.primary == "#fafafa")
            #expect(theme.cornerRadius == 12)
            #expect(client.value(for: "my-string-config-key", as: Theme.self, default: .fallback) == .fallback)

            let model = ThemeModel()
            let following = Task { await model.follow(client) }
            let changed = Theme(primary: "#123456", cornerRadius: 4)
            var themes = client.values(for: "theme", as: Theme.self, default: .fallback).makeAsyncIterator()
            #expect(await themes.next() == theme)
            emulator.setValue(["primary": "#123456", "cornerRadius": 4], forKey: "theme")
            #expect(await themes.next() == changed)
            // Every watcher of the key was given the change in the same update, so the model's stream holds
            // it too; closing finishes its loop after it has read it.
            client.close()
            await following.value
            #expect(model.theme == changed)
        }
    }

    @Test("a custom value type reads the configs of its kind")
    func customType() async throws {
        try await withDocumentedClient { client, _ in
            #expect(readLocale(client).identifier == "en_US")
            await client.initialize()
            #expect(readLocale(client).identifier == "fr_FR")
        }
    }
}
