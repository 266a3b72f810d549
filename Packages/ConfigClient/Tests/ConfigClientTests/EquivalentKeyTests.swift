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

/// Keys that Swift's `String` holds equal (canonically equivalent) but whose code points differ are different
/// configs, as they are in JSON and to the service (issue 43, item 6): each spelling reads its own value, streams
/// its own changes, is counted apart in telemetry and is kept on the device.
@Suite("Canonically equivalent keys are different configs", .timeLimit(.minutes(1)))
struct EquivalentKeyTests {
    /// Pairs of spellings that `String` compares equal: a precomposed letter and its decomposition, two signs and
    /// the letters they are equivalent to, a Hangul syllable and its jamo.
    private static let pairs = [
        ("caf\u{E9}", "cafe\u{301}"),
        ("\u{212B}", "\u{C5}"),
        ("\u{2126}", "\u{3A9}"),
        ("\u{D55C}", "\u{1112}\u{1161}\u{11AB}"),
    ]
    private static let spellings = pairs.flatMap { [$0.0, $0.1] }

    /// The value each spelling is served: its place in ``spellings``.
    private static func value(of index: Int) -> String { "value-\(index)" }

    /// A full set of every spelling, decoded from its JSON bytes as the service's sets are.
    private static func set(values: (Int) -> String = value(of:)) throws -> ConfigSet {
        let members = spellings.indices.map { #""\#(spellings[$0])":{"type":"string","value":"\#(values($0))"}"# }
        let text = #"{"kind":"full","configs":{\#(members.joined(separator: ","))}}"#
        return try #require(try ConfigSet(jsonBytes: Data(text.utf8)))
    }

    /// Whether two keys are spelled with the same bytes.
    private static func sameBytes(_ first: String, _ second: String) -> Bool {
        first.utf8.elementsEqual(second.utf8)
    }

    @Test("Swift's String holds each pair equal: the premise of this suite")
    func premise() {
        for (first, second) in Self.pairs {
            #expect(first == second)
            #expect(!Self.sameBytes(first, second))
        }
    }

    @Test("a set holding both spellings keeps both, and each spelling reads its own value")
    func eachSpellingReadsItsOwnValue() async throws {
        let set = try Self.set()
        #expect(set.configs.count == Self.spellings.count)
        let fixture = try ClientFixture(initial: set)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        for (index, key) in Self.spellings.enumerated() {
            #expect(
                fixture.client.value(for: key, default: "") == Self.value(of: index), "key \(Array(key.unicodeScalars))"
            )
        }
    }

    @Test("a stream of one spelling yields its own values, never the other spelling's")
    func eachSpellingStreamsItsOwnChanges() async throws {
        let fixture = try ClientFixture(initial: try Self.set())
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var streams = Self.spellings.map { fixture.client.values(for: $0, default: "").makeAsyncIterator() }
        for index in streams.indices {
            #expect(await streams[index].next() == Self.value(of: index))
        }
        // Each spelling changes in turn: only its own stream sees the change.
        for changed in Self.spellings.indices {
            try fixture.server.serve(try Self.set { $0 <= changed ? "changed-\($0)" : Self.value(of: $0) })
            #expect(await streams[changed].next() == "changed-\(changed)")
        }
    }

    @Test("telemetry counts each spelling under its own key")
    func telemetryCountsEachSpelling() async throws {
        let fixture = try ClientFixture(initial: try Self.set())
        defer { fixture.client.close() }
        await fixture.client.initialize()
        for key in Self.spellings {
            for _ in 0..<3 { _ = fixture.client.value(for: key, default: "") }
        }
        let events = try await flushedBatch(fixture).evaluatedConfigs
        #expect(events.count == Self.spellings.count)
        for (index, key) in Self.spellings.enumerated() {
            let counted = events.filter { Self.sameBytes($0.event.key, key) }
            #expect(counted.count == 1)
            #expect(counted.first?.count == 3)
            #expect(counted.first?.event.evaluatedValue == .text(Self.value(of: index)))
        }
    }

    @Test("the values kept on the device hold every spelling, and the next launch serves each its own")
    func keptValuesHoldEverySpelling() async throws {
        let provider = InMemoryCachingProvider()
        let user = ConfigDirectorContext(id: "user-1")
        let first = try ClientFixture(initial: try Self.set(), caching: CachingOptions(provider: provider))
        await first.client.initialize(context: user)
        first.client.close()
        #expect(await eventually { provider.read() != nil })

        let second = try ClientFixture(answer: .hold, caching: CachingOptions(provider: provider))
        defer { second.client.close() }
        let initialization = Task { await second.client.initialize(context: user) }
        #expect(await eventually { second.clock.sleeperCount == 2 })
        await second.client.keptValuesLoaded()
        #expect(second.client.valueSource == .keptValues)
        for (index, key) in Self.spellings.enumerated() {
            #expect(second.client.value(for: key, default: "") == Self.value(of: index))
        }
        second.clock.advance(by: 3)
        await initialization.value
    }
}
