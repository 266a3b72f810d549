@_spi(Internal) internal import ConfigModel
internal import Foundation

/// One lock stripe's count of recent evaluations of the configs the client holds, so that counting
/// an evaluation like the previous one of its key takes neither the collector's lock nor a second
/// hash of the key (PROTOCOL §6).
///
/// It holds one ``Entry`` per slot of the ``EvaluationTable``: the last kind of evaluation of that key
/// on this stripe and how many times it happened since it was handed to the collector. An evaluation
/// of another kind hands the entry over and takes its place; a flush hands every entry over.
///
/// The entries are kept in ``SlotPages``: the first evaluation of a key in a high slot (the 100,000th
/// config) makes one page, not a cache of 100,000 entries.
struct TelemetryCache {
    /// What makes two evaluations of a key alike here: the same config, context, type and default.
    /// Alike evaluations aggregate alike, since the reason and the value follow from these.
    struct Likeness: Equatable {
        /// The revision of the config evaluated (see ``EvaluationTable/Entry``).
        let revision: UInt64
        /// The context generation evaluated against (see ``ClientState/contextGeneration``).
        let contextGeneration: UInt64
        /// The type read, and the text of the default value.
        let requestedType: ObjectIdentifier
        let defaultValue: String
    }

    /// The evaluations of one key, alike, counted since they were last handed over.
    struct Entry {
        let likeness: Likeness
        /// The type read.
        let requestedType: any Any.Type
        /// The key and what the collector aggregates by.
        let key: String
        let variant: TelemetryCollector.Variant
        /// How many evaluations, and when the first and the last happened; the last is read with the
        /// clock's `coarseNow()`, to within a second.
        var count: Int
        let firstTime: Date
        var lastTime: Date
    }

    /// What a cache hands to the collector: entries replaced or drained, and the evaluations of the
    /// entries it dropped because the collector was busy (see ``waitingLimit``).
    struct HandOver {
        var entries: [Entry] = []
        var droppedCount = 0

        /// Whether it tells the collector nothing.
        var isEmpty: Bool { entries.isEmpty && droppedCount == 0 }
    }

    /// The entries by slot.
    private var entries = SlotPages<Entry>()
    /// Entries replaced and not handed over yet: they go to the collector in batches of
    /// ``handOverBatch``, so that threads re-counting every key after a large apply do not queue on the
    /// collector's lock once per key.
    private var replaced = HandOver()

    /// How many replaced entries are handed over at once.
    static let handOverBatch = 64

    /// How many replaced entries may wait here while the collector is busy with another thread's
    /// hand-over (``giveBack(_:)``). Past it the oldest are dropped and their evaluations counted as
    /// dropped, as a full collector drops its oldest (PROTOCOL §6): an evaluation never waits for the
    /// collector's lock. Only churn fills it (every key re-counted after a full set), while the
    /// collector, which holds at most ``TelemetryCollector/capacity`` aggregates, drops as much anyway.
    static let waitingLimit = 1_024

    /// Counts an evaluation of `slot` when it is like the last one cached there.
    /// - Returns: Whether it was counted: `false` when the slot holds another kind of evaluation, or none.
    mutating func count(slot: Int, _ likeness: Likeness, at now: Date) -> Bool {
        entries.update(slot) { entry in entry?.count(likeness, at: now) ?? false } ?? false
    }

    /// Caches `entry` in `slot`.
    /// - Returns: The entries replaced, with evaluations the collector has not been told of yet, once
    ///   ``handOverBatch`` of them are waiting; `nil` until then.
    mutating func store(_ entry: Entry, in slot: Int) -> HandOver? {
        guard let previous = entries.store(entry, in: slot) else { return nil }
        replaced.entries.append(previous)
        guard replaced.entries.count >= Self.handOverBatch else { return nil }
        defer { replaced = HandOver() }
        return replaced
    }

    /// Takes back what ``store(_:in:)`` returned and the collector could not take at once: it goes
    /// with the next hand-over or flush. Past ``waitingLimit`` entries, the oldest are dropped and counted.
    mutating func giveBack(_ handOver: HandOver) {
        replaced.entries.insert(contentsOf: handOver.entries, at: 0)
        replaced.droppedCount += handOver.droppedCount
        let excess = replaced.entries.count - Self.waitingLimit
        guard excess > 0 else { return }
        replaced.droppedCount += replaced.entries.prefix(excess).reduce(0) { $0 + $1.count }
        replaced.entries.removeFirst(excess)
    }

    /// This cache, leaving an empty one in its place: a flush takes each stripe's cache under that
    /// stripe's lock alone, in constant time, and drains it after the lock.
    mutating func takeAll() -> TelemetryCache {
        defer { self = TelemetryCache() }
        return self
    }

    /// Hands every cached entry over and empties the cache; a cache that counted nothing since the
    /// last time gives its memory back.
    mutating func drain(into drained: inout HandOver) {
        drained.entries += replaced.entries
        drained.droppedCount += replaced.droppedCount
        replaced = HandOver()
        let start = drained.entries.count
        entries.removeAll { drained.entries.append($0) }
        if drained.entries.count == start { entries = SlotPages() }
    }
}

/// Values by slot of the ``EvaluationTable``, in pages of ``pageSize`` slots made when a slot of
/// theirs is first stored: side tables of a lock stripe (see ``TelemetryCache``) cost memory for the
/// slots they hold, not for the table's size.
struct SlotPages<Element> {
    /// The slots of one page.
    static var pageSize: Int { 1 << pageShift }
    private static var pageShift: Int { 8 }

    /// The pages by number; an empty array is a page not made yet (and costs no memory).
    private var pages: [[Element?]] = []

    /// Runs `body` on the element of `slot` in place.
    /// - Returns: What `body` returns, or `nil` when the slot's page was never made (the slot is empty).
    @inline(__always)
    mutating func update<Result>(_ slot: Int, _ body: (inout Element?) -> Result) -> Result? {
        let page = slot >> Self.pageShift
        guard page < pages.count else { return nil }
        // Through the buffers: the arrays' subscripts would go through coroutines that are not inlined.
        return pages.withUnsafeMutableBufferPointer { pages in
            guard !pages[page].isEmpty else { return nil }
            return pages[page].withUnsafeMutableBufferPointer { elements in
                body(&elements[slot & (Self.pageSize - 1)])
            }
        }
    }

    /// Stores `element` in `slot`, making its page if needed.
    /// - Returns: The element it replaced, if any.
    mutating func store(_ element: Element, in slot: Int) -> Element? {
        let page = slot >> Self.pageShift
        if page >= pages.count { pages.append(contentsOf: repeatElement([], count: page + 1 - pages.count)) }
        if pages[page].isEmpty { pages[page] = Array(repeating: nil, count: Self.pageSize) }
        let index = slot & (Self.pageSize - 1)
        defer { pages[page][index] = element }
        return pages[page][index]
    }

    /// Hands every element to `body` and empties every slot, keeping the pages made.
    mutating func removeAll(_ body: (Element) -> Void) {
        for page in pages.indices where !pages[page].isEmpty {
            for element in pages[page] { if let element { body(element) } }
            pages[page] = Array(repeating: nil, count: Self.pageSize)
        }
    }
}

extension TelemetryCache.Entry {
    /// Counts one more evaluation when it is like this entry's, in place.
    fileprivate mutating func count(_ likeness: TelemetryCache.Likeness, at now: Date) -> Bool {
        guard self.likeness == likeness else { return false }
        count += 1
        lastTime = now
        return true
    }
}
