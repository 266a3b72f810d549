@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Watching values", .timeLimit(.minutes(1)))
struct WatchTests {
    @Test("a stream yields the current value, then each change, never an equal value twice")
    func yieldsChanges() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        var greetings = fixture.client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await greetings.next() == "none")

        await fixture.client.initialize()
        #expect(await greetings.next() == "hello")

        let server = try fixture.server
        server.serve(.strings(["greeting": "hello"]))
        server.serve(.strings(["greeting": "hi"]))
        #expect(await greetings.next() == "hi")
    }

    @Test("a slow consumer gets only the newest value")
    func newestValue() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var greetings = fixture.client.values(for: "greeting", default: "none").makeAsyncIterator()

        let server = try fixture.server
        server.serve(.strings(["greeting": "one"]))
        server.serve(.strings(["greeting": "two"]))
        server.serve(.strings(["greeting": "three"]))
        #expect(await greetings.next() == "three")
    }

    @Test("a full set without the key yields the default")
    func removalYieldsDefault() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var darkMode = fixture.client.values(for: "dark-mode", default: false).makeAsyncIterator()
        #expect(await darkMode.next() == true)

        try fixture.server.serve(.strings(["greeting": "hi"], kind: .full))
        #expect(await darkMode.next() == false)
    }

    @Test("a delta re-evaluates only the watchers of its keys")
    func deltaTouchesOnlyItsKeys() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var watched = [AsyncStream<CountedText>]()
        for index in 0..<50 {
            watched.append(fixture.client.values(for: "key-\(index)", default: CountedText(text: "")))
        }
        try fixture.server.serve(.strings(["key-0": "a", "key-1": "b"]))
        #expect(CountedText.parses.current == 2)
        try fixture.server.serve(.strings(["unwatched": "c"]))
        #expect(CountedText.parses.current == 2)
        _ = watched
    }

    @Test("JSON values are decoded and compared")
    func jsonValues() async throws {
        struct Theme: Decodable, Equatable {
            let primary: String
        }
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var themes = fixture.client.values(for: "theme", as: Theme.self, default: Theme(primary: "none"))
            .makeAsyncIterator()
        #expect(await themes.next() == Theme(primary: "#101010"))

        try fixture.server.serve(
            ConfigSet(kind: .delta, configs: ["theme": ConfigState(type: .json, value: ##"{"primary":"#ffffff"}"##)])
        )
        #expect(await themes.next() == Theme(primary: "#ffffff"))
    }

    @Test("cancelling the consuming task ends the watch")
    func cancellingEndsTheWatch() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let stream = fixture.client.values(for: "greeting", default: "")
        let consumer = Task {
            var seen = 0
            for await _ in stream { seen += 1 }
            return seen
        }
        consumer.cancel()
        _ = await consumer.value

        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        try fixture.server.serve(.strings(["greeting": "after"]))
        _ = fixture.client.value(for: "max-items", default: 0)
        #expect(try #require(await evaluations.next()).key == "max-items")
    }

    @Test("a stream created after close finishes without yielding anything")
    func afterClose() async throws {
        let fixture = try ClientFixture()
        await fixture.client.initialize()
        fixture.client.close()
        var greetings = fixture.client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await greetings.next() == nil)
    }
}

/// A string config value that counts its parses, which shows which watchers an update re-evaluated.
/// Only ``WatchTests/deltaTouchesOnlyItsKeys()`` reads it.
struct CountedText: ConfigValue, Equatable {
    /// The number of values parsed.
    static let parses = Protected(0)
    static var configValueKind: ConfigValueKind { .string }
    let text: String

    init(text: String) {
        self.text = text
    }

    init?(configValue: String) {
        Self.parses.withLock { $0 += 1 }
        text = configValue
    }
}
