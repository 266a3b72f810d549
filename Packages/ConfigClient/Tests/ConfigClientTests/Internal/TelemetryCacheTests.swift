@_spi(Internal) import ConfigModel
import Foundation
import Testing

@testable @_spi(Internal) import ConfigClient

/// `TelemetryCache`: an evaluation like the last one cached in its slot is counted in place; another
/// kind takes its place and the entry replaced is aggregated; evaluations of keys without a slot are
/// aggregated at once; draining gives every count once.
@Suite("TelemetryCache", .timeLimit(.minutes(1)))
struct TelemetryCacheTests {
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private static func likeness(revision: UInt64 = 1, context: UInt64 = 0, default text: String = "false")
        -> TelemetryCache.Likeness
    {
        TelemetryCache.Likeness(
            revision: revision, contextGeneration: context, requestedType: ObjectIdentifier(Bool.self),
            defaultValue: text)
    }

    private static func entry(
        _ key: String, _ likeness: TelemetryCache.Likeness, value: String = "true", at time: Date = start
    ) -> TelemetryCache.Entry {
        TelemetryCache.Entry(
            revision: likeness.revision,
            contextGeneration: likeness.contextGeneration,
            key: key,
            variant: TelemetryAggregates.Variant(
                configType: .boolean, defaultValue: likeness.defaultValue, requestedType: Bool.self,
                evaluatedValue: value, serverValueID: nil, reason: .foundMatch, contextID: nil),
            count: 1,
            firstTime: time,
            lastTime: time
        )
    }

    @Test("an empty cache counts nothing")
    func emptyCacheCountsNothing() {
        var cache = TelemetryCache()
        let check1 = !cache.count(slot: 0, Self.likeness(), at: Self.start)
        #expect(check1)
        let check2 = !cache.count(slot: 100_000, Self.likeness(), at: Self.start)
        #expect(check2)
        let check3 = cache.drain().isEmpty
        #expect(check3)
    }

    @Test("an evaluation like the cached one is counted in place, with its time")
    func likeEvaluationIsCounted() throws {
        var cache = TelemetryCache()
        cache.record(Self.entry("a", Self.likeness()), in: 3)
        let later = Self.start.addingTimeInterval(7)
        let check4 = cache.count(slot: 3, Self.likeness(), at: later)
        #expect(check4)
        let check5 = cache.count(slot: 3, Self.likeness(), at: later)
        #expect(check5)
        // A neighbour on the same page holds nothing.
        let check6 = !cache.count(slot: 4, Self.likeness(), at: later)
        #expect(check6)
        let aggregates = cache.drain().inRecordingOrder
        let aggregate = try #require(aggregates.first)
        #expect(aggregates.count == 1)
        #expect(aggregate.key == "a")
        #expect(aggregate.count == 3)
        #expect(aggregate.startTime == Self.start)
        #expect(aggregate.endTime == later)
    }

    @Test("another revision, context, type or default is not counted")
    func unlikeEvaluationIsNotCounted() {
        var cache = TelemetryCache()
        cache.record(Self.entry("a", Self.likeness()), in: 0)
        let check7 = !cache.count(slot: 0, Self.likeness(revision: 2), at: Self.start)
        #expect(check7)
        let check8 = !cache.count(slot: 0, Self.likeness(context: 1), at: Self.start)
        #expect(check8)
        let check9 = !cache.count(slot: 0, Self.likeness(default: "true"), at: Self.start)
        #expect(check9)
        let other = TelemetryCache.Likeness(
            revision: 1, contextGeneration: 0, requestedType: ObjectIdentifier(String.self), defaultValue: "false")
        let check10 = !cache.count(slot: 0, other, at: Self.start)
        #expect(check10)
        let check11 = cache.count(slot: 0, Self.likeness(), at: Self.start)
        #expect(check11)
    }

    @Test("replaced entries are aggregated by variant: alternating kinds of one key lose no evaluation")
    func replacedEntriesAggregate() {
        var cache = TelemetryCache()
        // Two defaults of one key, alternating: each evaluation replaces the other's entry.
        for index in 0..<5_000 {
            let likeness = Self.likeness(default: index.isMultiple(of: 2) ? "false" : "true")
            if !cache.count(slot: 0, likeness, at: Self.start) { cache.record(Self.entry("a", likeness), in: 0) }
        }
        let drained = cache.drain()
        #expect(drained.inRecordingOrder.map(\.count) == [2_500, 2_500])
        #expect(drained.droppedCount == 0)
    }

    @Test("evaluations of keys without a slot are aggregated by key and variant")
    func keysWithoutASlot() {
        var cache = TelemetryCache()
        for _ in 0..<3 { cache.record(Self.entry("missing", Self.likeness(revision: 0)), in: nil) }
        cache.record(Self.entry("other", Self.likeness(revision: 0)), in: nil)
        let check12 = cache.drain().inRecordingOrder.map { "\($0.key)×\($0.count)" } == ["missing×3", "other×1"]
        #expect(check12)
    }

    @Test("past the capacity, the oldest aggregates are dropped and their evaluations counted")
    func capacity() {
        var cache = TelemetryCache()
        let capacity = TelemetryAggregates.capacity
        for index in 0..<(capacity + 10) {
            var entry = Self.entry("key-\(index)", Self.likeness(revision: 0))
            entry.count = 2
            cache.record(entry, in: nil)
        }
        let drained = cache.drain()
        #expect(drained.count == capacity)
        #expect(drained.inRecordingOrder.first?.key == "key-10")
        #expect(drained.droppedCount == 10 * 2)
        // A drain gives the dropped count once.
        let check13 = cache.drain().droppedCount == 0
        #expect(check13)
    }

    @Test("a high slot and a low slot are both kept, each counted apart")
    func slotsOnDifferentPages() {
        var cache = TelemetryCache()
        cache.record(Self.entry("high", Self.likeness()), in: 99_999)
        cache.record(Self.entry("low", Self.likeness()), in: 1)
        let check14 = cache.count(slot: 99_999, Self.likeness(), at: Self.start)
        #expect(check14)
        let check15 = !cache.count(
            slot: 99_999 - SlotPages<TelemetryCache.Entry>.pageSize, Self.likeness(), at: Self.start)
        #expect(check15)
        let aggregates = cache.drain().inRecordingOrder
        #expect(Set(aggregates.map(\.key)) == ["high", "low"])
        #expect(aggregates.first { $0.key == "high" }?.count == 2)
    }

    @Test("a drain gives each count once and leaves the cache counting nothing")
    func drainEmpties() {
        var cache = TelemetryCache()
        cache.record(Self.entry("a", Self.likeness()), in: 0)
        let check16 = cache.drain().count == 1
        #expect(check16)
        let check17 = !cache.count(slot: 0, Self.likeness(), at: Self.start)
        #expect(check17)
        let check18 = cache.drain().isEmpty
        #expect(check18)
        // A cache that gave its memory back records again.
        cache.record(Self.entry("a", Self.likeness()), in: 0)
        let check19 = cache.count(slot: 0, Self.likeness(), at: Self.start)
        #expect(check19)
    }

    @Test("takeAll moves every entry out and leaves an empty cache")
    func takeAllMovesEverything() {
        var cache = TelemetryCache()
        cache.record(Self.entry("a", Self.likeness()), in: 0)
        cache.record(Self.entry("b", Self.likeness()), in: 300)
        var taken = cache.takeAll()
        let check20 = !cache.count(slot: 0, Self.likeness(), at: Self.start)
        #expect(check20)
        let check21 = cache.drain().isEmpty
        #expect(check21)
        let check22 = Set(taken.drain().inRecordingOrder.map(\.key)) == ["a", "b"]
        #expect(check22)
    }
}
