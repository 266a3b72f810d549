@_spi(Internal) import ConfigModel
import Foundation
import Testing

@testable @_spi(Internal) import ConfigClient

/// `TelemetryCache`: an evaluation like the last one cached in its slot is counted in place; another
/// kind replaces the entry, which is handed over in batches; draining hands every count over once.
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

    private static func entry(_ key: String, _ likeness: TelemetryCache.Likeness, at time: Date = start)
        -> TelemetryCache.Entry
    {
        TelemetryCache.Entry(
            likeness: likeness,
            requestedType: Bool.self,
            key: key,
            variant: TelemetryCollector.variant(
                configType: .boolean, defaultValue: likeness.defaultValue, requestedType: likeness.requestedType,
                evaluatedValue: "true", serverValueID: nil, reason: .foundMatch, contextID: nil),
            count: 1,
            firstTime: time,
            lastTime: time
        )
    }

    private static func drained(_ cache: inout TelemetryCache) -> [TelemetryCache.Entry] {
        var drained = TelemetryCache.HandOver()
        cache.drain(into: &drained)
        return drained.entries
    }

    @Test("an empty cache counts nothing")
    func emptyCacheCountsNothing() {
        var cache = TelemetryCache()
        let check1 = !cache.count(slot: 0, Self.likeness(), at: Self.start)
        #expect(check1)
        let check2 = !cache.count(slot: 100_000, Self.likeness(), at: Self.start)
        #expect(check2)
        #expect(Self.drained(&cache).isEmpty)
    }

    @Test("an evaluation like the cached one is counted in place, with its time")
    func likeEvaluationIsCounted() throws {
        var cache = TelemetryCache()
        let check3 = cache.store(Self.entry("a", Self.likeness()), in: 3) == nil
        #expect(check3)
        let later = Self.start.addingTimeInterval(7)
        let check4 = cache.count(slot: 3, Self.likeness(), at: later)
        #expect(check4)
        let check5 = cache.count(slot: 3, Self.likeness(), at: later)
        #expect(check5)
        // A neighbour on the same page holds nothing.
        let check6 = !cache.count(slot: 4, Self.likeness(), at: later)
        #expect(check6)
        let entries = Self.drained(&cache)
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(entry.key == "a")
        #expect(entry.count == 3)
        #expect(entry.firstTime == Self.start)
        #expect(entry.lastTime == later)
    }

    @Test("another revision, context or default is not counted")
    func unlikeEvaluationIsNotCounted() {
        var cache = TelemetryCache()
        _ = cache.store(Self.entry("a", Self.likeness()), in: 0)
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

    @Test("replaced entries are handed over a batch at a time, and the rest on drain")
    func replacedEntriesAreBatched() throws {
        var cache = TelemetryCache()
        _ = cache.store(Self.entry("a", Self.likeness(revision: 0)), in: 0)
        var handedOver: [TelemetryCache.Entry] = []
        for revision in 1...UInt64(TelemetryCache.handOverBatch) {
            let replaced = cache.store(Self.entry("a", Self.likeness(revision: revision)), in: 0)
            if revision < UInt64(TelemetryCache.handOverBatch) {
                #expect(replaced == nil)
            } else {
                handedOver = try #require(replaced).entries
            }
        }
        #expect(handedOver.count == TelemetryCache.handOverBatch)
        #expect(handedOver.map(\.likeness.revision) == Array(0..<UInt64(TelemetryCache.handOverBatch)))
        // One more replacement waits; the drain hands it over with the current entry.
        _ = cache.store(Self.entry("a", Self.likeness(revision: 1_000)), in: 0)
        let rest = Self.drained(&cache)
        #expect(rest.map(\.likeness.revision) == [UInt64(TelemetryCache.handOverBatch), 1_000])
    }

    @Test("entries given back, when the collector was busy, go with the next hand-over")
    func givenBackEntriesGoWithTheNextHandOver() throws {
        var cache = TelemetryCache()
        var revision: UInt64 = 0
        func replace() -> TelemetryCache.HandOver? {
            revision += 1
            return cache.store(Self.entry("a", Self.likeness(revision: revision)), in: 0)
        }
        _ = replace()
        var handedOver: TelemetryCache.HandOver?
        while handedOver == nil { handedOver = replace() }
        let first = try #require(handedOver)
        cache.giveBack(first)
        // The next replacement hands the given-back batch over again, with itself.
        let next = try #require(replace())
        #expect(next.entries.count == TelemetryCache.handOverBatch + 1)
        #expect(next.entries.map(\.likeness.revision) == Array(1...UInt64(TelemetryCache.handOverBatch + 1)))
        #expect(next.droppedCount == 0)
        #expect(Self.drained(&cache).map(\.likeness.revision) == [revision])
    }

    @Test("past the waiting limit, the oldest entries given back are dropped and their evaluations counted")
    func givenBackPastTheLimitDropsTheOldest() throws {
        var cache = TelemetryCache()
        let limit = TelemetryCache.waitingLimit
        // 10 entries more than the limit, each counting 2 evaluations, given back in two hand-overs.
        // What is given back goes before what waits: it was handed over first, so it is older.
        let entries = (0..<(limit + 10)).map { index in
            var entry = Self.entry("key-\(index)", Self.likeness(revision: UInt64(index)))
            entry.count = 2
            return entry
        }
        cache.giveBack(TelemetryCache.HandOver(entries: Array(entries[limit...]), droppedCount: 1))
        cache.giveBack(TelemetryCache.HandOver(entries: Array(entries[..<limit])))
        var drained = TelemetryCache.HandOver()
        cache.drain(into: &drained)
        #expect(drained.entries.count == limit)
        #expect(drained.entries.map(\.key) == entries[10...].map(\.key))
        #expect(drained.droppedCount == 1 + 10 * 2)
        // A drain hands the dropped count over once.
        var again = TelemetryCache.HandOver()
        cache.drain(into: &again)
        #expect(again.droppedCount == 0)
    }

    @Test("a high slot and a low slot are both kept, each counted apart")
    func slotsOnDifferentPages() {
        var cache = TelemetryCache()
        _ = cache.store(Self.entry("high", Self.likeness()), in: 99_999)
        _ = cache.store(Self.entry("low", Self.likeness()), in: 1)
        let check12 = cache.count(slot: 99_999, Self.likeness(), at: Self.start)
        #expect(check12)
        let check13 = !cache.count(
            slot: 99_999 - SlotPages<TelemetryCache.Entry>.pageSize, Self.likeness(), at: Self.start)
        #expect(check13)
        let entries = Self.drained(&cache)
        #expect(Set(entries.map(\.key)) == ["high", "low"])
        #expect(entries.first { $0.key == "high" }?.count == 2)
    }

    @Test("a drain hands each count over once and leaves the cache counting nothing")
    func drainEmpties() {
        var cache = TelemetryCache()
        _ = cache.store(Self.entry("a", Self.likeness()), in: 0)
        #expect(Self.drained(&cache).count == 1)
        let check14 = !cache.count(slot: 0, Self.likeness(), at: Self.start)
        #expect(check14)
        #expect(Self.drained(&cache).isEmpty)
        // A cache that gave its memory back stores again.
        let check15 = cache.store(Self.entry("a", Self.likeness()), in: 0) == nil
        #expect(check15)
        let check16 = cache.count(slot: 0, Self.likeness(), at: Self.start)
        #expect(check16)
    }

    @Test("takeAll moves every entry out and leaves an empty cache")
    func takeAllMovesEverything() {
        var cache = TelemetryCache()
        _ = cache.store(Self.entry("a", Self.likeness()), in: 0)
        _ = cache.store(Self.entry("b", Self.likeness()), in: 300)
        var taken = cache.takeAll()
        let check17 = !cache.count(slot: 0, Self.likeness(), at: Self.start)
        #expect(check17)
        #expect(Self.drained(&cache).isEmpty)
        #expect(Set(Self.drained(&taken).map(\.key)) == ["a", "b"])
    }
}
