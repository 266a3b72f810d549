internal import ConfigModel
internal import ConfigTransport
internal import Foundation

/// Aggregates evaluations as they happen and flushes them as batches (PROTOCOL §6).
///
/// Recording is one lock and a dictionary update: identical evaluations of one context share an
/// aggregate with a count, and at most ``capacity`` aggregates are held (the oldest is dropped and
/// counted when full). A flush happens 5 s after creation, then every 30 s, on a context change,
/// when the app enters the background, and on close; a flush that sends restarts the timer.
final class TelemetryCollector: Sendable {
    static let capacity = 1_000
    static let firstFlushDelay: Double = 5
    static let flushInterval: Double = 30

    private struct EventKey: Hashable {
        var contextID: String?
        var key: String
        var configType: ConfigType?
        var defaultValue: String
        var requestedType: ObjectIdentifier
        var evaluatedValue: String?
        var serverValueID: String?
        var reason: EvaluationReason
    }

    private struct Aggregate {
        var requestedTypeName: String
        var count: Int
        var startTime: Date
        var endTime: Date
        var sequence: UInt64
    }

    private struct Pending {
        var aggregates: [EventKey: Aggregate] = [:]
        var droppedCount = 0
        var nextSequence: UInt64 = 0
        var context: ConfigDirectorContext?
        var isStopped = false
    }

    private let pending = Locked(Pending())
    private let timer = Locked<Task<Void, Never>?>(nil)
    private let sends = SerialOperationQueue()
    private let sink: any TelemetrySink
    private let clock: any TransportClock

    init(sink: any TelemetrySink, clock: any TransportClock) {
        self.sink = sink
        self.clock = clock
        scheduleFlush(after: Self.firstFlushDelay)
    }

    /// Records one evaluation without blocking on anything but the collector's lock.
    func record<Value>(
        key: String,
        configType: ConfigType?,
        defaultValue: String,
        requestedType: Value.Type,
        evaluatedValue: String?,
        serverValueID: String?,
        reason: EvaluationReason,
        context: ConfigDirectorContext?
    ) {
        let eventKey = EventKey(
            contextID: context?.id,
            key: key,
            configType: configType,
            defaultValue: defaultValue,
            requestedType: ObjectIdentifier(requestedType),
            evaluatedValue: evaluatedValue,
            serverValueID: serverValueID,
            reason: reason
        )
        let now = clock.now()
        pending.withLock { pending in
            guard !pending.isStopped else { return }
            if pending.aggregates[eventKey] != nil {
                pending.aggregates[eventKey]!.count += 1
                pending.aggregates[eventKey]!.endTime = now
                return
            }
            if pending.aggregates.count >= Self.capacity, let oldest = pending.aggregates.min(by: { $0.value.sequence < $1.value.sequence }) {
                pending.aggregates.removeValue(forKey: oldest.key)
                pending.droppedCount += oldest.value.count
            }
            pending.aggregates[eventKey] = Aggregate(
                requestedTypeName: String(describing: requestedType),
                count: 1,
                startTime: now,
                endTime: now,
                sequence: pending.nextSequence
            )
            pending.nextSequence += 1
        }
    }

    /// Flushes the events of the previous context, then records under the new one.
    func contextChanged(to context: ConfigDirectorContext?) {
        flush(settingContext: .some(context), isTimer: false)
    }

    /// Sends what is pending now; when there was something to send, the timer restarts.
    func flush() {
        flush(settingContext: nil, isTimer: false)
    }

    private func flush(settingContext newContext: ConfigDirectorContext??, isTimer: Bool) {
        let batch = pending.withLock { pending -> TelemetryBatch? in
            guard !pending.isStopped else { return nil }
            defer {
                pending.aggregates = [:]
                pending.droppedCount = 0
                if let newContext { pending.context = newContext }
            }
            return Self.batch(of: pending)
        }
        guard let batch else {
            if isTimer { scheduleFlush(after: Self.flushInterval) }
            return
        }
        scheduleFlush(after: Self.flushInterval)
        // The sink is held by the send itself, so the last batch goes out after the client is released.
        let sink = sink
        sends.enqueue { [weak self] in
            if await !sink.send(batch) { self?.stop() }
        }
    }

    /// Sends what is pending and stops recording.
    func close() {
        flush()
        stop()
    }

    private func stop() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        pending.withLock { pending in
            pending.isStopped = true
            pending.aggregates = [:]
        }
    }

    private func scheduleFlush(after seconds: Double) {
        let clock = clock
        timer.withLock { timer in
            timer?.cancel()
            timer = Task { [weak self] in
                guard (try? await clock.sleep(seconds: seconds)) != nil, !Task.isCancelled else { return }
                self?.flush(settingContext: nil, isTimer: true)
            }
        }
    }

    private static func batch(of pending: Pending) -> TelemetryBatch? {
        guard !pending.aggregates.isEmpty || pending.droppedCount > 0 else { return nil }
        let evaluations = pending.aggregates.sorted { $0.value.sequence < $1.value.sequence }.map { key, aggregate in
            let usedDefault = key.reason != .foundMatch
            let evaluatedValueID = usedDefault ? nil : (key.serverValueID ?? key.evaluatedValue.map { ValueID(of: $0).rawValue })
            return TelemetryAggregatedEvaluation(
                startTime: aggregate.startTime,
                endTime: aggregate.endTime,
                count: aggregate.count,
                event: TelemetryEvaluationEvent(
                    contextID: key.contextID,
                    key: key.key,
                    type: key.configType,
                    defaultValue: TelemetryValue(text: key.defaultValue, configType: key.configType, valueID: nil),
                    requestedType: aggregate.requestedTypeName,
                    evaluatedValue: TelemetryValue(
                        text: key.evaluatedValue,
                        configType: key.configType,
                        valueID: key.serverValueID
                    ),
                    evaluatedValueID: evaluatedValueID,
                    usedDefault: usedDefault,
                    reason: key.reason
                )
            )
        }
        return TelemetryBatch(
            context: pending.context,
            evaluatedConfigs: evaluations,
            droppedEvaluatedConfigCount: pending.droppedCount
        )
    }
}
