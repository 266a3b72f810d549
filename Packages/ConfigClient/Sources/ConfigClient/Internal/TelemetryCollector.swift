@_spi(Locking) internal import ConfigModel
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

    /// What, besides the config key, tells two evaluations apart: identical evaluations share an aggregate.
    private struct Variant: Equatable {
        var contextID: String?
        var configType: ConfigType?
        var defaultValue: String
        var requestedType: ObjectIdentifier
        var evaluatedValue: String?
        var serverValueID: String?
        var reason: EvaluationReason
    }

    private struct Aggregate {
        var variant: Variant
        var requestedTypeName: String
        var count: Int
        var startTime: Date
        var endTime: Date
        var sequence: UInt64
    }

    /// The aggregates by config key, so that recording hashes the key alone and compares the rest,
    /// which is usually one aggregate per key.
    private struct Pending {
        var aggregates: [String: [Aggregate]] = [:]
        var aggregateCount = 0
        /// Every aggregate's sequence and key in the order recorded, from `orderStart` on.
        var order: [(sequence: UInt64, key: String)] = []
        var orderStart = 0
        /// The names of the types read, made once per type.
        var typeNames: [ObjectIdentifier: String] = [:]
        var droppedCount = 0
        var nextSequence: UInt64 = 0
        var context: ConfigDirectorContext?
        var isStopped = false

        /// Counts one more evaluation of an existing aggregate; `false` when there is none.
        static func count(_ variant: Variant, at now: Date, in aggregates: inout [Aggregate]) -> Bool {
            guard let index = aggregates.firstIndex(where: { $0.variant == variant }) else { return false }
            aggregates[index].count += 1
            aggregates[index].endTime = now
            return true
        }

        /// Adds the aggregate of a new evaluation to `list`, the aggregates of `key`, in recording order.
        mutating func insert(
            key: String,
            variant: Variant,
            requestedType: Any.Type,
            at now: Date,
            into list: inout [Aggregate]
        ) {
            let typeID = ObjectIdentifier(requestedType)
            let typeName = typeNames[typeID] ?? String(describing: requestedType)
            typeNames[typeID] = typeName
            list.append(
                Aggregate(
                    variant: variant,
                    requestedTypeName: typeName,
                    count: 1,
                    startTime: now,
                    endTime: now,
                    sequence: nextSequence
                )
            )
            order.append((nextSequence, key))
            nextSequence += 1
            aggregateCount += 1
        }

        /// Removes the aggregate recorded first, counting its evaluations as dropped: the front of
        /// `order`, so that a full collector drops in constant time rather than scanning every aggregate.
        mutating func dropOldest() {
            guard orderStart < order.count else { return }
            let (sequence, key) = order[orderStart]
            orderStart += 1
            if orderStart > 64, orderStart * 2 > order.count {
                order.removeFirst(orderStart)
                orderStart = 0
            }
            guard let index = aggregates[key]?.firstIndex(where: { $0.sequence == sequence }),
                let removed = aggregates[key]?.remove(at: index)
            else { return }
            if aggregates[key]?.isEmpty == true { aggregates.removeValue(forKey: key) }
            aggregateCount -= 1
            droppedCount += removed.count
        }

        /// Forgets every aggregate, as a flush does.
        mutating func removeAll() {
            aggregates = [:]
            aggregateCount = 0
            order = []
            orderStart = 0
        }
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
        contextID: String?
    ) {
        let variant = Variant(
            contextID: contextID,
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
            // One hash of the key when the evaluation is counted; the empty list this leaves for a new
            // key is filled right below.
            if Pending.count(variant, at: now, in: &pending.aggregates[key, default: []]) { return }
            if pending.aggregateCount >= Self.capacity { pending.dropOldest() }
            var list = pending.aggregates.removeValue(forKey: key) ?? []
            pending.insert(key: key, variant: variant, requestedType: requestedType, at: now, into: &list)
            pending.aggregates[key] = list
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
                pending.removeAll()
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
            pending.removeAll()
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
        let recorded = pending.aggregates.flatMap { key, list in list.map { (key: key, aggregate: $0) } }
        let evaluations = recorded.sorted { $0.aggregate.sequence < $1.aggregate.sequence }.map { key, aggregate in
            let variant = aggregate.variant
            let usedDefault = variant.reason != .foundMatch
            let evaluatedValueID =
                usedDefault ? nil : (variant.serverValueID ?? variant.evaluatedValue.map { ValueID(of: $0).rawValue })
            return TelemetryAggregatedEvaluation(
                startTime: aggregate.startTime,
                endTime: aggregate.endTime,
                count: aggregate.count,
                event: TelemetryEvaluationEvent(
                    contextID: variant.contextID,
                    key: key,
                    type: variant.configType,
                    defaultValue: TelemetryValue(
                        text: variant.defaultValue, configType: variant.configType, valueID: nil),
                    requestedType: aggregate.requestedTypeName,
                    evaluatedValue: TelemetryValue(
                        text: variant.evaluatedValue,
                        configType: variant.configType,
                        valueID: variant.serverValueID
                    ),
                    evaluatedValueID: evaluatedValueID,
                    usedDefault: usedDefault,
                    reason: variant.reason
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
