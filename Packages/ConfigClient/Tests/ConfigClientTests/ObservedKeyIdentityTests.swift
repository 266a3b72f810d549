@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
import Observation
import Testing

extension ConfigKeys {
    /// Computed keys, as SwiftyRemoteConfig declares them: a new key object on each read.
    fileprivate static var computedBanner: ConfigKey<String> { ConfigKey("banner", default: "none") }
    fileprivate static var computedTitle: ConfigKey<String> { ConfigKey("title", default: "untitled") }
    fileprivate static let signal = ConfigKey("signal", default: "none")
}

/// `ObservedConfigs` tells keys apart by what they mean (name, type, default), never by the key object:
/// keys made where they are read, in a loop or by a computed property, each read their own value.
@Suite("Observed configs: keys by meaning", .timeLimit(.minutes(1)))
struct ObservedKeyIdentityTests {
    private static let keyCount = 200
    private static let rounds = 5

    private static func banners(round: Int) -> ConfigSet {
        .strings(Dictionary(uniqueKeysWithValues: (0..<keyCount).map { ("banner-\($0)", "round \(round) #\($0)") }))
    }

    /// Serves `set`, then a change of ``ConfigKeys/signal``, and returns once `configs` took it: every value
    /// of `set` was taken before it, in the order the client evaluated them.
    @MainActor
    private static func serve(
        _ set: ConfigSet, to configs: ObservedConfigs, signal: String, on server: InMemoryServer
    ) async {
        let change = Change { _ = configs[.signal] }
        server.serve(set)
        server.serve(.strings(["signal": signal]))
        await change.wait()
    }

    @MainActor
    @Test("200 keys made in a loop read their own values, round after round, as the values change")
    func keysMadeInALoop() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let server = try fixture.server
        let configs = ObservedConfigs(client: fixture.client)
        for round in 0..<Self.rounds {
            await Self.serve(Self.banners(round: round), to: configs, signal: "\(round)", on: server)
            var wrong: [String] = []
            for index in 0..<Self.keyCount {
                let value = configs[ConfigKey("banner-\(index)", default: "none")]
                if value != "round \(round) #\(index)" { wrong.append("banner-\(index): \(value)") }
            }
            #expect(
                wrong.count == 0, "round \(round): \(wrong.count) of \(Self.keyCount) reads wrong: \(wrong.prefix(3))")
        }
    }

    @MainActor
    @Test("computed keys (`static var … { ConfigKey(…) }`) read their own values, read after read")
    func computedKeys() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let server = try fixture.server
        let configs = ObservedConfigs(client: fixture.client)
        for round in 0..<Self.rounds {
            await Self.serve(
                .strings(["banner": "banner \(round)", "title": "title \(round)"]),
                to: configs, signal: "\(round)", on: server)
            var wrong = 0
            for _ in 0..<Self.keyCount {
                if configs[.computedBanner] != "banner \(round)" { wrong += 1 }
                if configs[.computedTitle] != "title \(round)" { wrong += 1 }
            }
            #expect(wrong == 0, "round \(round): \(wrong) of \(2 * Self.keyCount) reads wrong")
        }
    }

    @MainActor
    @Test("keys of one name with another default, value type or kind never share a value")
    func sameNameOtherMeaning() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let configs = ObservedConfigs(client: fixture.client)
        let fallback = KeyIdentityTheme(primary: "none")
        var wrong: [String] = []
        func check<Value: Equatable>(_ name: String, _ value: Value, _ expected: Value) {
            if value != expected { wrong.append("\(name): \(value)") }
        }
        for _ in 0..<Self.keyCount {
            check("a string", configs[ConfigKey("absent", default: "a")], "a")
            check("another default", configs[ConfigKey("absent", default: "b")], "b")
            check("an integer", configs[ConfigKey("absent", default: 3)], 3)
            check("a JSON string", configs[JSONConfigKey("absent", as: String.self, default: "json")], "json")
            check(
                "a JSON object", configs[JSONConfigKey("absent", as: KeyIdentityTheme.self, default: fallback)],
                fallback)
            check("a NaN default", configs[ConfigKey("absent", default: Double.nan)].isNaN, true)
            // A served string config read as a JSON document is not a document: the JSON key gets its default.
            check("a served string", configs[ConfigKey("greeting", default: "none")], "hello")
            check(
                "the served string as JSON", configs[JSONConfigKey("greeting", as: String.self, default: "json")],
                "json")
        }
        #expect(wrong.count == 0, "\(wrong.count) of \(8 * Self.keyCount) reads wrong: \(Set(wrong).sorted())")
    }

    @MainActor
    @Test("equal keys share one slot: a change is evaluated once for both")
    func equalKeysShareASlot() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let configs = ObservedConfigs(client: fixture.client)
        let first = ConfigKey("greeting", default: "none")
        let second = ConfigKey("greeting", default: "none")
        #expect(configs[first] == "hello")
        #expect(configs[second] == "hello")
        #expect(configs[.signal] == "none")

        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        await Self.serve(.strings(["greeting": "hi"]), to: configs, signal: "1", on: try fixture.server)
        #expect(await evaluations.next()?.key == "greeting")
        #expect(await evaluations.next()?.key == "signal")
        #expect(configs[first] == "hi")
        #expect(configs[second] == "hi")
    }

    @MainActor
    @Test("a key not read since its last change is released when it changes again, and followed again when read")
    func unreadKeyIsReleased() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let server = try fixture.server
        let configs = ObservedConfigs(client: fixture.client)
        #expect(configs[ConfigKey("greeting", default: "none")] == "hello")

        // The first change is taken (a view that read the key re-renders); nothing reads the key after it.
        await Self.serve(.strings(["greeting": "hi"]), to: configs, signal: "1", on: server)
        // The second finds the key unread since the first: nothing observes it any more, and it is released.
        await Self.serve(.strings(["greeting": "hey"]), to: configs, signal: "2", on: server)

        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        server.serve(.strings(["greeting": "yo"]))
        fixture.client.value(for: "dark-mode", default: false)
        // A watcher still following the greeting would have evaluated it while the delta was applied.
        #expect(await evaluations.next()?.key == "dark-mode")
        #expect(configs[ConfigKey("greeting", default: "none")] == "yo")
    }

    @MainActor
    @Test("a key read after each change stays followed: each change reaches the view that reads it")
    func readKeyStaysFollowed() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let server = try fixture.server
        let configs = ObservedConfigs(client: fixture.client)
        for round in 0..<Self.rounds {
            // As SwiftUI does, the body reads the key again after each change, under a new observation.
            let change = Change { _ = configs[ConfigKey("greeting", default: "none")] }
            server.serve(.strings(["greeting": "hi \(round)"]))
            await change.wait()
            #expect(configs[ConfigKey("greeting", default: "none")] == "hi \(round)")
        }
    }
}

private struct KeyIdentityTheme: Decodable, Equatable, Sendable {
    let primary: String
}
