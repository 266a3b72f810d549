@_spi(Internal) @_spi(Locking) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport
internal import Foundation

/// Aggregates evaluations and flushes them as batches (PROTOCOL §6).
///
/// Identical evaluations of one context share an aggregate with a count, and at most ``capacity``
/// aggregates are held (the oldest is dropped and counted when full). Evaluations reach it only as
/// ``TelemetryCache`` entries: those of configs the client holds are counted first in the cache of
/// their lock stripe, which hands them over (``TelemetryCache/HandOver``, with the evaluations it
/// dropped) when another kind of evaluation takes their place, through ``absorbIfIdle(_:)``, which
/// never waits for the lock, and on every flush; an evaluation of a key the client does not hold comes
/// as one entry. A flush happens 5 s after creation, then every 30 s, on a context change, when the
/// app enters the background, and on close; a flush that sends restarts the timer.
/// Batches go to the sink one at a time, in order, through the collector's serial queue: the one
/// place the client's telemetry is serialised (``TelemetryReporter`` does not order them again).
final class TelemetryCollector: Sendable {
    static let capacity = 1_000
    static let firstFlushDelay: Double = 5
    static let flushInterval: Double = 30
    /// How long the last batch may take once the client closes, in seconds: the timeout of one
    /// telemetry request (PROTOCOL §6).
    static let closeDeadline: Double = 5

    /// What, besides the config key, tells two evaluations apart: identical evaluations share an aggregate.
    struct Variant: Equatable {
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

        /// Counts `count` evaluations of `key` that happened from `start` to `end`, in their
        /// aggregate, made (and the oldest dropped when full) if there is none.
        mutating func count(
            key: String,
            variant: Variant,
            requestedType: any Any.Type,
            count: Int,
            from start: Date,
            to end: Date
        ) {
            guard !isStopped else { return }
            // One hash of the key when the evaluations are counted; the empty list this leaves for a
            // new key is filled right below.
            if Self.add(count, of: variant, from: start, to: end, in: &aggregates[key, default: []]) { return }
            if aggregateCount >= TelemetryCollector.capacity { dropOldest() }
            var list = aggregates.removeValue(forKey: key) ?? []
            insert(
                key: key, variant: variant, requestedType: requestedType, count: count, from: start, to: end,
                into: &list)
            aggregates[key] = list
        }

        /// Counts the evaluations of cache entries, and those a cache dropped.
        mutating func absorb(_ entries: some Collection<TelemetryCache.Entry>, droppedCount: Int) {
            guard !isStopped else { return }
            self.droppedCount += droppedCount
            for entry in entries where entry.count > 0 {
                count(
                    key: entry.key,
                    variant: entry.variant,
                    requestedType: entry.requestedType,
                    count: entry.count,
                    from: entry.firstTime,
                    to: max(entry.firstTime, entry.lastTime)
                )
            }
        }

        /// Adds evaluations to an existing aggregate; `false` when there is none.
        private static func add(
            _ count: Int,
            of variant: Variant,
            from start: Date,
            to end: Date,
            in aggregates: inout [Aggregate]
        ) -> Bool {
            guard let index = aggregates.firstIndex(where: { $0.variant == variant }) else { return false }
            aggregates[index].count += count
            aggregates[index].startTime = min(aggregates[index].startTime, start)
            aggregates[index].endTime = max(aggregates[index].endTime, end)
            return true
        }

        /// Adds the aggregate of new evaluations to `list`, the aggregates of `key`, in recording order.
        private mutating func insert(
            key: String,
            variant: Variant,
            requestedType: any Any.Type,
            count: Int,
            from start: Date,
            to end: Date,
            into list: inout [Aggregate]
        ) {
            let typeID = ObjectIdentifier(requestedType)
            let typeName =
                typeNames[typeID]
                ?? String(describing: (requestedType as? any StandInValue.Type)?.requestedType ?? requestedType)
            typeNames[typeID] = typeName
            list.append(
                Aggregate(
                    variant: variant,
                    requestedTypeName: typeName,
                    count: count,
                    startTime: start,
                    endTime: end,
                    sequence: nextSequence
                )
            )
            order.append((nextSequence, key))
            nextSequence += 1
            aggregateCount += 1
        }

        /// Removes the aggregate recorded first, counting its evaluations as dropped: the front of
        /// `order`, so that a full collector drops in constant time rather than scanning every aggregate.
        private mutating func dropOldest() {
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
    private let cacheDrain = Locked<(@Sendable () -> TelemetryCache.HandOver)?>(nil)
    private let timer = Locked<Task<Void, Never>?>(nil)
    private let sends = SerialQueue()
    /// Whether `close` was called: batches queued before it and not sent yet are dropped.
    private let isClosing = Locked(false)
    private let sink: any TelemetrySink
    private let clock: any TransportClock

    init(sink: any TelemetrySink, clock: any TransportClock) {
        self.sink = sink
        self.clock = clock
        scheduleFlush(after: Self.firstFlushDelay)
    }

    /// What an evaluation tells telemetry, apart from its key, its type and when it happened.
    static func variant(
        configType: ConfigType?,
        defaultValue: String,
        requestedType: ObjectIdentifier,
        evaluatedValue: String?,
        serverValueID: String?,
        reason: EvaluationReason,
        contextID: String?
    ) -> Variant {
        let found = reason == .foundMatch
        return Variant(
            contextID: contextID,
            configType: configType,
            defaultValue: defaultValue,
            requestedType: requestedType,
            // What the app received: the default's text when it was used.
            evaluatedValue: found ? evaluatedValue : defaultValue,
            serverValueID: found ? serverValueID : nil,
            reason: reason
        )
    }

    /// Takes over the evaluations a ``TelemetryCache`` hands over: the collector's one intake.
    func absorb(_ handOver: TelemetryCache.HandOver) {
        guard !handOver.isEmpty else { return }
        pending.withLock { pending in pending.absorb(handOver.entries, droppedCount: handOver.droppedCount) }
    }

    /// Takes over one evaluation of a key the client does not hold, which no cache counts.
    func absorb(_ entry: TelemetryCache.Entry) {
        pending.withLock { pending in pending.absorb(CollectionOfOne(entry), droppedCount: 0) }
    }

    /// Takes over what a cache hands over like ``absorb(_:)-(TelemetryCache.HandOver)`` when no other
    /// thread is handing entries over, without waiting for it.
    /// - Returns: Whether it took them; `false` leaves them to the caller.
    func absorbIfIdle(_ handOver: TelemetryCache.HandOver) -> Bool {
        guard !handOver.isEmpty else { return true }
        return pending.withLockIfAvailable { pending in
            pending.absorb(handOver.entries, droppedCount: handOver.droppedCount)
        } != nil
    }

    /// The time of the first evaluation an entry of a ``TelemetryCache`` counts.
    func now() -> Date { clock.now() }

    /// The time of the evaluations an entry of a ``TelemetryCache`` counts after its first.
    func coarseNow() -> Date { clock.coarseNow() }

    /// Drains the caches of every lock stripe before each flush that is not given their entries.
    func drainCaches(with drain: @escaping @Sendable () -> TelemetryCache.HandOver) {
        cacheDrain.withLock { $0 = drain }
    }

    /// Flushes the events of the previous context, then records under the new one.
    /// - Parameters:
    ///   - context: The new context.
    ///   - cached: The entries of every cache, drained by the caller, which holds every stripe's lock.
    func contextChanged(to context: ConfigDirectorContext?, cached: TelemetryCache.HandOver) {
        flush(settingContext: .some(context), isTimer: false, cached: cached)
    }

    /// Sends what is pending now; when there was something to send, the timer restarts.
    func flush() {
        flush(settingContext: nil, isTimer: false, cached: nil)
    }

    /// Drains the caches (unless `cached` holds their entries), then sends what is pending.
    /// - Returns: The send of the batch, when there was one.
    @discardableResult
    private func flush(
        settingContext newContext: ConfigDirectorContext??,
        isTimer: Bool,
        cached: TelemetryCache.HandOver?,
        isLast: Bool = false
    ) -> Task<Void, Never>? {
        let cached = cached ?? cacheDrain.withLock { $0 }?() ?? TelemetryCache.HandOver()
        let batch = pending.withLock { pending -> TelemetryBatch? in
            guard !pending.isStopped else { return nil }
            pending.absorb(cached.entries, droppedCount: cached.droppedCount)
            defer {
                pending.removeAll()
                pending.droppedCount = 0
                if let newContext { pending.context = newContext }
            }
            return Self.batch(of: pending)
        }
        guard let batch else {
            if isTimer { scheduleFlush(after: Self.flushInterval) }
            return nil
        }
        if !isLast { scheduleFlush(after: Self.flushInterval) }
        // The sink is held by the send itself, so the last batch goes out after the client is released.
        let sink = sink
        let isClosing = isClosing
        return sends.enqueue { [weak self] in
            guard isLast || !isClosing.withLock({ $0 }) else { return }
            if await !sink.send(batch) { self?.stop() }
        }
    }

    /// Waits until every batch queued so far, or while it waits, was handled: given to the sink and
    /// answered, or skipped by `close`.
    func sendsEnded() async {
        await sends.idle()
    }

    /// Stops recording, sends what is pending as the last batch, and returns once it was handled or
    /// ``closeDeadline`` passed, whichever comes first; then the sink closes, so that nothing of the
    /// client's telemetry outlives the deadline. Batches queued earlier and not sent yet are dropped.
    func close() async {
        isClosing.withLock { $0 = true }
        let last = flush(settingContext: nil, isTimer: false, cached: nil, isLast: true)
        stop()
        if let last {
            // Ends at the first of the last send and the deadline.
            let ended = Promise<Void>()
            let clock = clock
            let deadline = Task {
                _ = try? await clock.sleep(seconds: Self.closeDeadline)
                ended.resolve(())
            }
            Task {
                await last.value
                ended.resolve(())
            }
            await ended.value()
            deadline.cancel()
        }
        sink.close()
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
                self?.flush(settingContext: nil, isTimer: true, cached: nil)
            }
        }
    }

    private static func batch(of pending: Pending) -> TelemetryBatch? {
        guard !pending.aggregates.isEmpty || pending.droppedCount > 0 else { return nil }
        let recorded = pending.aggregates.flatMap { key, list in list.map { (key: key, aggregate: $0) } }
        let evaluations = recorded.sorted { $0.aggregate.sequence < $1.aggregate.sequence }.map { key, aggregate in
            let variant = aggregate.variant
            let usedDefault = variant.reason != .foundMatch
            // The server's value id only (PROTOCOL §6).
            let evaluatedValueID = usedDefault ? nil : variant.serverValueID
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
