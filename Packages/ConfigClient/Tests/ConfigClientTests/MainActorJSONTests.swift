@_spi(Testing) import ClientTestSupport
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@_spi(Internal) @_spi(Testing) @testable import ConfigClient

/// A JSON type as an app target isolated to the main actor declares it: its `Decodable` conformance is
/// isolated to the main actor, so it cannot satisfy a `Sendable` type parameter.
struct MainActorTheme: @MainActor Decodable, Equatable {
    let primary: String
    let cornerRadius: Double
}

@Suite("Reading JSON as a type whose Decodable conformance is main-actor isolated", .timeLimit(.minutes(1)))
struct MainActorJSONTests {
    private let fallback = MainActorTheme(primary: "none", cornerRadius: 0)

    @Test("decodes on the main actor, with the reasons of any JSON read, each read decoding the document again")
    @MainActor
    func decodes() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "user-1"))
        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        let client = fixture.client

        let expected = MainActorTheme(primary: "#101010", cornerRadius: 8)
        #expect(client.value(for: "theme", as: MainActorTheme.self, default: fallback) == expected)
        // The stripe kept the document, not the value: the second read decodes it again, to the same value.
        #expect(client.value(for: "theme", as: MainActorTheme.self, default: fallback) == expected)
        #expect(client.value(for: "greeting", as: MainActorTheme.self, default: fallback) == fallback)
        #expect(client.value(for: "missing", as: MainActorTheme.self, default: fallback) == fallback)

        var seen: [ConfigEvaluation] = []
        for _ in 0..<4 { seen.append(try #require(await evaluations.next())) }
        #expect(seen.map(\.reason) == [.foundMatch, .foundMatch, .typeMismatch, .configStateMissing])
        // The stream runs on other threads: it is given the served document, not the main actor's value.
        let document = try #require(seen[0].value.as(String.self))
        #expect(try JSONDecoder().decode(MainActorTheme.self, from: Data(document.utf8)) == expected)
        #expect(!seen[0].isDefaultValue)
        #expect(seen[2].isDefaultValue)
    }

    @Test("a Sendable type read on the main actor keeps the other read, whose decode the stripe keeps and publishes")
    @MainActor
    func sendableOnTheMainActor() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var evaluations = fixture.client.evaluations.makeAsyncIterator()

        struct SendableTheme: Decodable, Equatable, Sendable {
            let primary: String
            let cornerRadius: Double
        }
        let fallback = SendableTheme(primary: "none", cornerRadius: 0)
        let theme = fixture.client.value(for: "theme", as: SendableTheme.self, default: fallback)
        #expect(theme == SendableTheme(primary: "#101010", cornerRadius: 8))
        // The decoded value itself reaches the stream: the overload of Sendable types evaluated it.
        #expect(try #require(await evaluations.next()).value.as(SendableTheme.self) == theme)
    }

    @Test("a document that does not decode as the type gives the default, with invalidJSON")
    @MainActor
    func invalid() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var evaluations = fixture.client.evaluations.makeAsyncIterator()

        struct Other: @MainActor Decodable { let missingField: Int }
        #expect(fixture.client.value(for: "theme", as: Other.self, default: Other(missingField: 1)).missingField == 1)
        #expect(try #require(await evaluations.next()).reason == .invalidJSON)
    }

    @Test("telemetry names the type the app asked for, and counts the reads as one kind of evaluation")
    func telemetry() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "user-1"))
        let (client, fallback) = (fixture.client, fallback)
        await MainActor.run {
            for _ in 0..<3 { _ = client.value(for: "theme", as: MainActorTheme.self, default: fallback) }
        }

        await fixture.advance(by: 5.1)
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        let batch = try #require(fixture.telemetry.batches.first)
        let theme = try #require(batch.evaluatedConfigs.first { $0.event.key == "theme" })
        #expect(theme.count == 3)
        #expect(theme.event.requestedType == "MainActorTheme")
        #expect(!theme.event.usedDefault)
        #expect(theme.event.reason == .foundMatch)
    }
}
