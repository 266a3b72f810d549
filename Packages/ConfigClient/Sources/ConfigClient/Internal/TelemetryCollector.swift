@_spi(Internal) @_spi(Locking) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport
internal import Foundation

/// Holds the evaluations the client hands it and sends them as batches (PROTOCOL §6), one at a
/// time, in order: the one place the client's telemetry is serialised (``TelemetryReporter`` does not
/// order them again).
///
/// Data flows one way: the client drains its lock stripes' ``TelemetryCache``s into one
/// ``TelemetryAggregates`` and hands it to ``flush(_:context:)``, the one intake, on its timer, on a
/// context change, when the app enters the background, and to ``close(last:)``. Nothing here calls the
/// client; what the client needs to schedule its timer, ``flush(_:context:)`` returns.
final class TelemetryCollector: Sendable {
    static let firstFlushDelay: Double = 5
    static let flushInterval: Double = 30
    /// How long the last batch may take once the client closes, in seconds: the timeout of one
    /// telemetry request (PROTOCOL §6).
    static let closeDeadline: Double = 5

    /// The context a flush records under from then on.
    enum ContextChange {
        /// The context stays.
        case unchanged
        /// Evaluations from now on are of this context (`nil`: the server derives one).
        case changed(to: ConfigDirectorContext?)
    }

    /// What a flush did, for the client's timer.
    enum Flushed {
        /// A batch was queued: the next flush comes an interval later.
        case sent
        /// There was nothing to send.
        case nothing
        /// The collector stopped (the sink refused, or it closed): no flush will send again.
        case stopped
    }

    /// Everything that changes, under one lock.
    private struct State {
        var pending = TelemetryAggregates()
        var context: ConfigDirectorContext?
        var phase = Phase.recording
    }

    private enum Phase {
        case recording
        /// `close` was called: batches queued before it and not sent yet are dropped.
        case closing
        /// The sink refused, or the collector closed: nothing is recorded any more.
        case stopped
    }

    private let state = Locked(State())
    private let sends = SerialQueue()
    private let sink: any TelemetrySink
    private let clock: any TransportClock

    init(sink: any TelemetrySink, clock: any TransportClock) {
        self.sink = sink
        self.clock = clock
    }

    /// The time of the first evaluation an entry of a ``TelemetryCache`` counts.
    func now() -> Date { clock.now() }

    /// The time of the evaluations an entry of a ``TelemetryCache`` counts after its first.
    func coarseNow() -> Date { clock.coarseNow() }

    /// Adds `drained` to what is pending and queues it all as one batch, then records under `context`.
    /// - Parameters:
    ///   - drained: The evaluations of every stripe's cache since the last flush.
    ///   - context: The context of the evaluations after this flush.
    /// - Returns: What the flush did.
    @discardableResult
    func flush(_ drained: TelemetryAggregates, context: ContextChange = .unchanged) -> Flushed {
        let (flushed, batch) = state.withLock { state -> (Flushed, TelemetryBatch?) in
            guard state.phase == .recording else { return (.stopped, nil) }
            state.pending.merge(drained)
            defer {
                state.pending = TelemetryAggregates()
                if case .changed(let context) = context { state.context = context }
            }
            let batch = Self.batch(of: state.pending, context: state.context)
            return (batch == nil ? .nothing : .sent, batch)
        }
        guard let batch else { return flushed }
        send(batch, isLast: false)
        return .sent
    }

    /// Waits until every batch queued so far, or while it waits, was handled: given to the sink and
    /// answered, or skipped by `close`.
    func sendsEnded() async {
        await sends.idle()
    }

    /// Stops recording, sends what is pending with `last` as the last batch, and returns once it was
    /// handled or ``closeDeadline`` passed, whichever comes first; then the sink closes, so that nothing
    /// of the client's telemetry outlives the deadline. Batches queued earlier and not sent yet are dropped.
    func close(last: TelemetryAggregates) async {
        let batch = state.withLock { state -> TelemetryBatch? in
            guard state.phase == .recording else { return nil }
            state.phase = .closing
            state.pending.merge(last)
            defer { state.pending = TelemetryAggregates() }
            return Self.batch(of: state.pending, context: state.context)
        }
        let lastSend = batch.map { send($0, isLast: true) }
        stop()
        if let lastSend {
            // Ends at the first of the last send and the deadline.
            let ended = Promise<Void>()
            let clock = clock
            let deadline = Task {
                _ = try? await clock.sleep(seconds: Self.closeDeadline)
                ended.resolve(())
            }
            Task {
                await lastSend.value
                ended.resolve(())
            }
            await ended.value()
            deadline.cancel()
        }
        sink.close()
    }

    /// Queues a batch; once closing, only the last one is sent.
    @discardableResult
    private func send(_ batch: TelemetryBatch, isLast: Bool) -> Task<Void, Never> {
        // The sink is held by the send itself, so the last batch goes out after the client is released.
        let sink = sink
        return sends.enqueue { [weak self, state] in
            guard isLast || state.withLock({ $0.phase == .recording }) else { return }
            if await !sink.send(batch) { self?.stop() }
        }
    }

    private func stop() {
        state.withLock { state in
            state.phase = .stopped
            state.pending = TelemetryAggregates()
        }
    }

    private static func batch(of pending: TelemetryAggregates, context: ConfigDirectorContext?) -> TelemetryBatch? {
        guard !pending.isEmpty else { return nil }
        let evaluations = pending.inRecordingOrder.map { aggregate in
            let variant = aggregate.variant
            let usedDefault = variant.reason != .foundMatch
            let requestedType =
                (variant.requestedType as? any StandInValue.Type)?.requestedType ?? variant.requestedType
            return TelemetryAggregatedEvaluation(
                startTime: aggregate.startTime,
                endTime: aggregate.endTime,
                count: aggregate.count,
                event: TelemetryEvaluationEvent(
                    contextID: variant.contextID,
                    key: aggregate.key,
                    type: variant.configType,
                    defaultValue: TelemetryValue(
                        text: variant.defaultValue, configType: variant.configType, valueID: nil),
                    requestedType: String(describing: requestedType),
                    evaluatedValue: TelemetryValue(
                        text: variant.evaluatedValue,
                        configType: variant.configType,
                        valueID: variant.serverValueID
                    ),
                    // The server's value id only (PROTOCOL §6).
                    evaluatedValueID: usedDefault ? nil : variant.serverValueID,
                    usedDefault: usedDefault,
                    reason: variant.reason
                )
            )
        }
        return TelemetryBatch(
            context: context,
            evaluatedConfigs: evaluations,
            droppedEvaluatedConfigCount: pending.droppedCount
        )
    }
}
