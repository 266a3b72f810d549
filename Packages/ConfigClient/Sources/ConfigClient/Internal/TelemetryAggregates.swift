@_spi(Internal) internal import ConfigModel
internal import Foundation

/// Evaluations aggregated for telemetry (PROTOCOL §6): identical evaluations of a key share an
/// aggregate with a count, at most ``capacity`` aggregates are held, and past it the oldest is dropped
/// and its evaluations counted as dropped.
///
/// The one place evaluations aggregate: each lock stripe's ``TelemetryCache`` aggregates the entries
/// it replaced in one, the client merges the stripes' into one batch at each flush, and the
/// ``TelemetryCollector`` merges that batch into its own until it sends it.
struct TelemetryAggregates {
    /// How many aggregates are held.
    static let capacity = 1_000

    /// What, besides the config key, tells two evaluations apart: identical evaluations share an aggregate.
    struct Variant: Equatable {
        var contextID: String?
        var configType: ConfigType?
        var defaultValue: String
        /// The type read (a stand-in for the app's type is reported as the type it stands for).
        var requestedType: any Any.Type
        var evaluatedValue: String?
        var serverValueID: String?
        var reason: EvaluationReason

        /// What an evaluation tells telemetry: the default's text as the value when it was used, and
        /// the server's value id only when its value was served.
        init(
            configType: ConfigType?,
            defaultValue: String,
            requestedType: any Any.Type,
            evaluatedValue: String?,
            serverValueID: String?,
            reason: EvaluationReason,
            contextID: String?
        ) {
            let found = reason == .foundMatch
            self.contextID = contextID
            self.configType = configType
            self.defaultValue = defaultValue
            self.requestedType = requestedType
            self.evaluatedValue = found ? evaluatedValue : defaultValue
            self.serverValueID = found ? serverValueID : nil
            self.reason = reason
        }

        static func == (lhs: Variant, rhs: Variant) -> Bool {
            ObjectIdentifier(lhs.requestedType) == ObjectIdentifier(rhs.requestedType)
                && lhs.defaultValue == rhs.defaultValue && lhs.evaluatedValue == rhs.evaluatedValue
                && lhs.reason == rhs.reason && lhs.serverValueID == rhs.serverValueID
                && lhs.contextID == rhs.contextID && lhs.configType == rhs.configType
        }
    }

    /// Alike evaluations of one key, counted, and when the first and the last happened.
    struct Aggregate {
        let key: String
        let variant: Variant
        var count: Int
        var startTime: Date
        var endTime: Date
        /// The order of recording, so that batches list aggregates in the order their keys were first read.
        let sequence: UInt64
    }

    /// The aggregates by config key (its exact bytes), so that counting hashes the key alone and compares the rest,
    /// which is usually one aggregate per key.
    private var aggregates: [ExactKey: [Aggregate]] = [:]
    private(set) var count = 0
    /// Every aggregate's sequence and key in the order recorded, from `orderStart` on.
    private var order: [(sequence: UInt64, key: ExactKey)] = []
    private var orderStart = 0
    private var nextSequence: UInt64 = 0
    /// The evaluations dropped: of aggregates dropped past ``capacity``, and of those merged in.
    private(set) var droppedCount = 0

    /// Whether it tells nothing: no evaluation, none dropped.
    var isEmpty: Bool { count == 0 && droppedCount == 0 }

    /// Counts `count` evaluations of `key` that happened from `start` to `end` in their aggregate, made
    /// (and the oldest dropped when full) if there is none.
    mutating func add(_ count: Int, of name: String, _ variant: Variant, from start: Date, to end: Date) {
        guard count > 0 else { return }
        let key = ExactKey(name)
        let end = max(start, end)
        // One hash of the key when the aggregate exists; the empty list this leaves for a new key is
        // filled right below.
        if Self.add(count, of: variant, from: start, to: end, in: &aggregates[key, default: []]) { return }
        if self.count >= Self.capacity { dropOldest() }
        aggregates[key, default: []].append(
            Aggregate(key: name, variant: variant, count: count, startTime: start, endTime: end, sequence: nextSequence)
        )
        order.append((nextSequence, key))
        nextSequence += 1
        self.count += 1
    }

    /// Counts evaluations that were dropped before they reached an aggregate.
    mutating func addDropped(_ count: Int) {
        droppedCount += count
    }

    /// Adds every aggregate of `other`, in its recording order, and its dropped evaluations.
    mutating func merge(_ other: TelemetryAggregates) {
        droppedCount += other.droppedCount
        for aggregate in other.inRecordingOrder {
            add(aggregate.count, of: aggregate.key, aggregate.variant, from: aggregate.startTime, to: aggregate.endTime)
        }
    }

    /// Every aggregate, in recording order.
    var inRecordingOrder: [Aggregate] {
        aggregates.values.joined().sorted { $0.sequence < $1.sequence }
    }

    /// Adds evaluations to an existing aggregate; `false` when there is none.
    private static func add(
        _ count: Int,
        of variant: Variant,
        from start: Date,
        to end: Date,
        in list: inout [Aggregate]
    ) -> Bool {
        guard let index = list.firstIndex(where: { $0.variant == variant }) else { return false }
        list[index].count += count
        list[index].startTime = min(list[index].startTime, start)
        list[index].endTime = max(list[index].endTime, end)
        return true
    }

    /// Removes the aggregate recorded first, counting its evaluations as dropped: the front of
    /// `order`, so that a full table drops in constant time rather than scanning every aggregate.
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
        count -= 1
        droppedCount += removed.count
    }
}
