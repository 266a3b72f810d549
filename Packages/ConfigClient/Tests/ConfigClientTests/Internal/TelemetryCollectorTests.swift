@_spi(Testing) import ClientTestSupport
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import Foundation
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@testable @_spi(Internal) @_spi(Testing) import ConfigClient

/// `TelemetryCollector` and `TelemetryAggregates`: evaluations aggregate by key and variant, at most
/// `capacity` aggregates are held (the oldest dropped and counted), each flush merges what the client
/// drained and sends a batch per context, and a sink's refusal or `close` stops recording for good.
@Suite("TelemetryCollector", .timeLimit(.minutes(1)))
struct TelemetryCollectorTests {
    private static let time = Date(timeIntervalSince1970: 1_800_000_000)

    private static func variant(default text: String = "false", value: String? = "true", context: String? = nil)
        -> TelemetryAggregates.Variant
    {
        TelemetryAggregates.Variant(
            configType: .boolean, defaultValue: text, requestedType: Bool.self, evaluatedValue: value,
            serverValueID: "v1", reason: .foundMatch, contextID: context)
    }

    /// Aggregates of `count` evaluations of each key, in order, with `variant`.
    private static func aggregates(
        _ keys: [String], _ variant: TelemetryAggregates.Variant = variant(), count: Int = 1, at time: Date = time
    ) -> TelemetryAggregates {
        var aggregates = TelemetryAggregates()
        for key in keys { aggregates.add(count, of: key, variant, from: time, to: time) }
        return aggregates
    }

    private static func next(_ iterator: inout AsyncStream<TelemetryBatch>.Iterator) async throws -> TelemetryBatch {
        try #require(await iterator.next())
    }

    @Test("identical evaluations share one aggregate, others get their own, in recording order")
    func aggregation() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        var drained = Self.aggregates(["a", "a", "a", "b"])
        drained.add(1, of: "a", Self.variant(default: "true"), from: Self.time, to: Self.time)
        #expect(collector.flush(drained) == .sent)
        let batch = try await Self.next(&batches)
        #expect(batch.evaluatedConfigs.map(\.event.key) == ["a", "b", "a"])
        #expect(batch.evaluatedConfigs.map(\.count) == [3, 1, 1])
        #expect(batch.evaluatedConfigs.first?.event.requestedType == "Bool")
        #expect(batch.evaluatedConfigs.first?.event.evaluatedValueID == "v1")
        #expect(batch.droppedEvaluatedConfigCount == 0)
        await collector.close(last: TelemetryAggregates())
    }

    @Test("a merge sums the counts of a variant and keeps both ends of its span; an empty count adds nothing")
    func mergeKeepsTheSpan() throws {
        var merged = Self.aggregates(["a"])
        let earlier = Self.time.addingTimeInterval(-10)
        let later = Self.time.addingTimeInterval(20)
        var other = TelemetryAggregates()
        other.add(5, of: "a", Self.variant(), from: earlier, to: later)
        other.add(0, of: "b", Self.variant(), from: earlier, to: later)
        merged.merge(other)
        let aggregate = try #require(merged.inRecordingOrder.first)
        #expect(merged.count == 1)
        #expect(aggregate.count == 6)
        #expect(aggregate.startTime == earlier)
        #expect(aggregate.endTime == later)
    }

    @Test("a full table drops its oldest aggregate and counts its evaluations, across merges")
    func capacity() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        var drained = Self.aggregates(["first"], count: 2)
        drained.merge(Self.aggregates((0..<TelemetryAggregates.capacity).map { "key-\($0)" }))
        drained.addDropped(3)
        collector.flush(drained)
        let batch = try await Self.next(&batches)
        #expect(batch.evaluatedConfigs.count == TelemetryAggregates.capacity)
        #expect(batch.droppedEvaluatedConfigCount == 2 + 3)
        #expect(!batch.evaluatedConfigs.contains { $0.event.key == "first" })
        await collector.close(last: TelemetryAggregates())
    }

    @Test("a flush with nothing drained nor pending sends nothing, and says so")
    func emptyFlush() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        #expect(collector.flush(TelemetryAggregates()) == .nothing)
        // The close sends a last batch only if something is pending: nothing is, so the stream ends.
        await collector.close(last: TelemetryAggregates())
        #expect(await batches.next() == nil)
    }

    @Test("a context change flushes under the old context and records under the new one")
    func contextChange() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        #expect(
            collector.flush(TelemetryAggregates(), context: .changed(to: ConfigDirectorContext(id: "old"))) == .nothing)
        collector.flush(
            Self.aggregates(["a"], Self.variant(context: "old")),
            context: .changed(to: ConfigDirectorContext(id: "new")))
        collector.flush(Self.aggregates(["a"], Self.variant(context: "new")))
        let first = try await Self.next(&batches)
        let second = try await Self.next(&batches)
        #expect(first.context?.id == "old")
        #expect(first.evaluatedConfigs.map(\.event.contextID) == ["old"])
        #expect(second.context?.id == "new")
        #expect(second.evaluatedConfigs.map(\.event.contextID) == ["new"])
        await collector.close(last: TelemetryAggregates())
    }

    @Test("a refusal stops recording for good")
    func refusalStops() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        sink.refuseFromNowOn()
        collector.flush(Self.aggregates(["a"]))
        _ = try await Self.next(&batches)
        await collector.sendsEnded()
        #expect(collector.flush(Self.aggregates(["b"])) == .stopped)
        // The close would send "c" as the last batch, before it closes the sink, had it been recorded.
        await collector.close(last: Self.aggregates(["c"]))
        #expect(await batches.next() == nil)
        #expect(sink.closes == 1)
    }

    @Test("close sends what is pending and what it is given as the last batch, then closes the sink")
    func closeSendsLastBatch() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        var batches = sink.arrivals.makeAsyncIterator()
        await collector.close(last: Self.aggregates(["a"]))
        let last = try await Self.next(&batches)
        #expect(last.evaluatedConfigs.map(\.event.key) == ["a"])
        #expect(await batches.next() == nil)
        #expect(sink.closes == 1)
        #expect(collector.flush(Self.aggregates(["b"])) == .stopped)
    }

    @Test("flushes on many threads at once lose no evaluation")
    func concurrentFlushes() async throws {
        let sink = RecordingTelemetrySink()
        let collector = TelemetryCollector(sink: sink, clock: ManualClock())
        await onThreads(4) { index in
            for _ in 0..<500 { collector.flush(Self.aggregates(["k\(index % 2)"], count: 10)) }
        }
        await collector.sendsEnded()
        let counted = sink.batches.flatMap(\.evaluatedConfigs).map(\.count).reduce(0, +)
        #expect(counted == 4 * 500 * 10)
        await collector.close(last: TelemetryAggregates())
    }
}
