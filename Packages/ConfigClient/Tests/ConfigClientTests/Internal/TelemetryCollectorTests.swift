@_spi(Testing) import ClientTestSupport
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import Foundation
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@testable @_spi(Internal) @_spi(Testing) import ConfigClient

/// `TelemetryCollector`: evaluations aggregate by key and variant, at most `capacity` aggregates are
/// held (the oldest dropped and counted), entries of the stripes' caches merge with what was recorded,
/// flushes send a batch per context, and a sink's refusal or `close` stops recording for good.
@Suite("TelemetryCollector", .timeLimit(.minutes(1)))
struct TelemetryCollectorTests {
    private static let time = Date(timeIntervalSince1970: 1_800_000_000)

    private static func variant(default text: String = "false", value: String? = "true", context: String? = nil)
        -> TelemetryCollector.Variant
    {
        TelemetryCollector.variant(
            configType: .boolean, defaultValue: text, requestedType: ObjectIdentifier(Bool.self),
            evaluatedValue: value, serverValueID: "v1", reason: .foundMatch, contextID: context)
    }

    /// One evaluation of `key`, as the client hands it over.
    private static func entry(_ key: String, _ variant: TelemetryCollector.Variant, count: Int = 1, at time: Date)
        -> TelemetryCache.Entry
    {
        TelemetryCache.Entry(
            likeness: TelemetryCache.Likeness(
                revision: 0, contextGeneration: 0, requestedType: variant.requestedType,
                defaultValue: variant.defaultValue),
            requestedType: Bool.self, key: key, variant: variant, count: count, firstTime: time, lastTime: time)
    }

    private static func next(_ iterator: inout AsyncStream<TelemetryBatch>.Iterator) async throws -> TelemetryBatch {
        try #require(await iterator.next())
    }

    @Test("identical evaluations share one aggregate, others get their own, in recording order")
    func aggregation() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        for _ in 0..<3 { collector.absorb(Self.entry("a", Self.variant(), at: Self.time)) }
        collector.absorb(Self.entry("b", Self.variant(), at: Self.time))
        collector.absorb(Self.entry("a", Self.variant(default: "true"), at: Self.time))
        collector.flush()
        let batch = try await Self.next(&batches)
        #expect(batch.evaluatedConfigs.map(\.event.key) == ["a", "b", "a"])
        #expect(batch.evaluatedConfigs.map(\.count) == [3, 1, 1])
        #expect(batch.evaluatedConfigs.first?.event.requestedType == "Bool")
        #expect(batch.evaluatedConfigs.first?.event.evaluatedValueID == "v1")
        #expect(batch.droppedEvaluatedConfigCount == 0)
        await collector.close()
    }

    @Test("absorbIfIdle takes entries only when it counts them: with every refusal handed over again, none is lost")
    func absorbIfIdleLosesNothing() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        await onThreads(4) { _ in
            for _ in 0..<2_000
            where !collector.absorbIfIdle(
                TelemetryCache.HandOver(entries: [Self.entry("a", Self.variant(), at: Self.time)]))
            {
                collector.absorb(Self.entry("a", Self.variant(), at: Self.time))
            }
        }
        collector.flush()
        let batch = try await Self.next(&batches)
        #expect(batch.evaluatedConfigs.map(\.count) == [8_000])
        await collector.close()
    }

    @Test("a full collector drops its oldest aggregate and counts its evaluations")
    func capacity() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        collector.absorb(Self.entry("first", Self.variant(), at: Self.time))
        collector.absorb(Self.entry("first", Self.variant(), at: Self.time))
        for index in 0..<TelemetryCollector.capacity {
            collector.absorb(Self.entry("key-\(index)", Self.variant(), at: Self.time))
        }
        collector.flush()
        let batch = try await Self.next(&batches)
        #expect(batch.evaluatedConfigs.count == TelemetryCollector.capacity)
        #expect(batch.droppedEvaluatedConfigCount == 2)
        #expect(!batch.evaluatedConfigs.contains { $0.event.key == "first" })
        await collector.close()
    }

    @Test("the evaluations a cache dropped while the collector was busy are reported as dropped, however they come")
    func droppedByACache() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        collector.absorb(
            TelemetryCache.HandOver(entries: [Self.entry("a", Self.variant(), at: Self.time)], droppedCount: 5))
        let taken = collector.absorbIfIdle(TelemetryCache.HandOver(droppedCount: 3))
        #expect(taken)
        collector.drainCaches { TelemetryCache.HandOver(droppedCount: 2) }
        collector.flush()
        let batch = try await Self.next(&batches)
        #expect(batch.evaluatedConfigs.map(\.count) == [1])
        #expect(batch.droppedEvaluatedConfigCount == 10)
        await collector.close()
    }

    @Test("cache entries merge with recorded evaluations of the same variant, keeping both ends of the span")
    func absorbMerges() async throws {
        let sink = RecordingTelemetrySink()
        let clock = ManualClock()
        let collector = TelemetryCollector(sink: sink, clock: clock)
        var batches = sink.arrivals.makeAsyncIterator()
        let recordedAt = clock.now()
        collector.absorb(Self.entry("a", Self.variant(), at: recordedAt))
        let likeness = TelemetryCache.Likeness(
            revision: 1, contextGeneration: 0, requestedType: ObjectIdentifier(Bool.self), defaultValue: "false")
        let earlier = recordedAt.addingTimeInterval(-10)
        let later = recordedAt.addingTimeInterval(20)
        collector.absorb(
            TelemetryCache.HandOver(entries: [
                TelemetryCache.Entry(
                    likeness: likeness, requestedType: Bool.self, key: "a", variant: Self.variant(), count: 5,
                    firstTime: earlier, lastTime: later),
                // An entry that counted nothing adds no aggregate.
                TelemetryCache.Entry(
                    likeness: likeness, requestedType: Bool.self, key: "b", variant: Self.variant(), count: 0,
                    firstTime: earlier, lastTime: later),
            ]))
        collector.flush()
        let batch = try await Self.next(&batches)
        let aggregate = try #require(batch.evaluatedConfigs.first)
        #expect(batch.evaluatedConfigs.count == 1)
        #expect(aggregate.count == 6)
        #expect(aggregate.startTime == earlier)
        #expect(aggregate.endTime == later)
        await collector.close()
    }

    @Test("a flush drains the caches it was given, and a flush with nothing pending sends nothing")
    func flushDrainsCaches() async throws {
        let sink = RecordingTelemetrySink()
        let clock = ManualClock()
        let collector = TelemetryCollector(sink: sink, clock: clock)
        var batches = sink.arrivals.makeAsyncIterator()
        let drains = ConcurrentCounter()
        let likeness = TelemetryCache.Likeness(
            revision: 1, contextGeneration: 0, requestedType: ObjectIdentifier(Bool.self), defaultValue: "false")
        let now = clock.now()
        collector.drainCaches {
            drains.add()
            return TelemetryCache.HandOver(entries: [
                TelemetryCache.Entry(
                    likeness: likeness, requestedType: Bool.self, key: "cached", variant: Self.variant(), count: 4,
                    firstTime: now, lastTime: now)
            ])
        }
        collector.flush()
        let batch = try await Self.next(&batches)
        #expect(batch.evaluatedConfigs.map(\.event.key) == ["cached"])
        #expect(batch.evaluatedConfigs.first?.count == 4)
        collector.drainCaches { TelemetryCache.HandOver() }
        collector.flush()
        // The close sends a last batch only if something is pending: nothing is, so the stream ends.
        await collector.close()
        #expect(await batches.next() == nil)
        #expect(drains.value == 1)
    }

    @Test("a context change flushes under the old context and records under the new one")
    func contextChange() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        let old = ConfigDirectorContext(id: "old")
        let new = ConfigDirectorContext(id: "new")
        collector.contextChanged(to: old, cached: TelemetryCache.HandOver())
        collector.absorb(Self.entry("a", Self.variant(context: "old"), at: Self.time))
        collector.contextChanged(to: new, cached: TelemetryCache.HandOver())
        collector.absorb(Self.entry("a", Self.variant(context: "new"), at: Self.time))
        collector.flush()
        let first = try await Self.next(&batches)
        let second = try await Self.next(&batches)
        #expect(first.context?.id == "old")
        #expect(first.evaluatedConfigs.map(\.event.contextID) == ["old"])
        #expect(second.context?.id == "new")
        #expect(second.evaluatedConfigs.map(\.event.contextID) == ["new"])
        await collector.close()
    }

    @Test("the timer flushes 5 s after creation")
    func firstTimerFlush() async throws {
        let sink = RecordingTelemetrySink()
        let clock = ManualClock()
        let collector = TelemetryCollector(sink: sink, clock: clock)
        var batches = sink.arrivals.makeAsyncIterator()
        collector.absorb(Self.entry("a", Self.variant(), at: Self.time))
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: TelemetryCollector.firstFlushDelay)
        let batch = try await Self.next(&batches)
        #expect(batch.evaluatedConfigs.map(\.event.key) == ["a"])
        await collector.close()
    }

    @Test("a refusal stops recording for good")
    func refusalStops() async throws {
        let sink = RecordingTelemetrySink()
        let clock = ManualClock()
        let collector = TelemetryCollector(sink: sink, clock: clock)
        var batches = sink.arrivals.makeAsyncIterator()
        sink.refuseFromNowOn()
        collector.absorb(Self.entry("a", Self.variant(), at: Self.time))
        collector.flush()
        _ = try await Self.next(&batches)
        // Stopping cancels the flush timer: its sleep leaving the clock is the point the refusal was handled.
        while clock.sleeperCount > 0 { await Task.yield() }
        collector.absorb(Self.entry("b", Self.variant(), at: Self.time))
        // The close would send "b" as the last batch, before it closes the sink, had it been recorded.
        await collector.close()
        #expect(await batches.next() == nil)
        #expect(sink.closes == 1)
    }

    @Test("close sends what is pending as the last batch, then closes the sink")
    func closeSendsLastBatch() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        collector.absorb(Self.entry("a", Self.variant(), at: Self.time))
        await collector.close()
        let last = try await Self.next(&batches)
        #expect(last.evaluatedConfigs.map(\.event.key) == ["a"])
        #expect(await batches.next() == nil)
        #expect(sink.closes == 1)
    }

    @Test("evaluations recorded on many threads at once are all counted")
    func concurrentRecording() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        await onThreads(4) { index in
            for _ in 0..<5_000 {
                collector.absorb(Self.entry("k\(index % 2)", Self.variant(), at: Self.time))
            }
        }
        collector.flush()
        let batch = try await Self.next(&batches)
        #expect(batch.evaluatedConfigs.map(\.count).reduce(0, +) == 20_000)
        #expect(batch.evaluatedConfigs.count == 2)
        await collector.close()
    }
}
