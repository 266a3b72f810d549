@_spi(Internal) internal import ConfigModel
internal import Foundation

/// One lock stripe's count of recent evaluations, so that counting an evaluation like the previous one
/// of its key takes no lock but the stripe's and no second hash of the key (PROTOCOL §6).
///
/// It holds one ``Entry`` per slot of the ``EvaluationTable``: the last kind of evaluation of that key
/// on this stripe and how many times it happened. An evaluation of another kind takes its place, and
/// the entry replaced goes to the stripe's ``TelemetryAggregates``, as does every evaluation of a key
/// the client does not hold (which has no slot). Nothing here talks to the collector: the client
/// drains every stripe's cache at each flush and hands the collector one batch.
///
/// The entries are kept in ``SlotPages``: the first evaluation of a key in a high slot (the 100,000th
/// config) makes one page, not a cache of 100,000 entries.
struct TelemetryCache {
    /// What makes an evaluation like the one an entry counts: the same config, context, type and
    /// default. Alike evaluations aggregate alike, since the reason and the value follow from these.
    struct Likeness {
        /// The revision of the config evaluated (see ``EvaluationTable/Entry``).
        let revision: UInt64
        /// The context generation evaluated against (see ``ClientState/contextGeneration``).
        let contextGeneration: UInt64
        /// The type read, and the text of the default value.
        let requestedType: ObjectIdentifier
        let defaultValue: String
    }

    /// The evaluations of one key, alike, counted since the cache was last drained.
    struct Entry {
        /// The revision and the context generation of ``Likeness``; its type and default are the variant's.
        let revision: UInt64
        let contextGeneration: UInt64
        let key: String
        let variant: TelemetryAggregates.Variant
        /// How many evaluations, and when the first and the last happened; the last is read with the
        /// clock's `coarseNow()`, to within a second.
        var count: Int
        let firstTime: Date
        var lastTime: Date

        /// What an evaluation like this one is.
        var likeness: Likeness {
            Likeness(
                revision: revision, contextGeneration: contextGeneration,
                requestedType: ObjectIdentifier(variant.requestedType), defaultValue: variant.defaultValue)
        }

        /// Whether an evaluation alike is counted here.
        func isLike(_ likeness: Likeness) -> Bool {
            revision == likeness.revision && contextGeneration == likeness.contextGeneration
                && ObjectIdentifier(variant.requestedType) == likeness.requestedType
                && variant.defaultValue == likeness.defaultValue
        }
    }

    /// The entries by slot.
    private var entries = SlotPages<Entry>()
    /// The entries replaced and the evaluations of keys the client does not hold, since the last drain.
    private var replaced = TelemetryAggregates()

    /// Counts an evaluation of `slot` when it is like the last one cached there.
    /// - Returns: Whether it was counted: `false` when the slot holds another kind of evaluation, or none.
    mutating func count(slot: Int, _ likeness: Likeness, at now: Date) -> Bool {
        entries.update(slot) { entry in entry?.count(likeness, at: now) ?? false } ?? false
    }

    /// Caches `entry` in `slot`, aggregating the entry it replaces; an entry of a key the client does
    /// not hold (no slot) is aggregated at once.
    mutating func record(_ entry: Entry, in slot: Int?) {
        guard let slot else { return replaced.add(entry) }
        guard let previous = entries.store(entry, in: slot) else { return }
        replaced.add(previous)
    }

    /// This cache, leaving an empty one in its place: a flush takes each stripe's cache under that
    /// stripe's lock alone, in constant time, and drains it after the lock.
    mutating func takeAll() -> TelemetryCache {
        defer { self = TelemetryCache() }
        return self
    }

    /// Every evaluation counted, aggregated, leaving the cache empty; a cache that counted nothing
    /// since the last time gives its memory back.
    mutating func drain() -> TelemetryAggregates {
        var drained = replaced
        replaced = TelemetryAggregates()
        var counted = false
        entries.removeAll { entry in
            drained.add(entry)
            counted = true
        }
        if !counted { entries = SlotPages() }
        return drained
    }
}

extension TelemetryAggregates {
    /// Counts the evaluations of a cache entry.
    fileprivate mutating func add(_ entry: TelemetryCache.Entry) {
        add(entry.count, of: entry.key, entry.variant, from: entry.firstTime, to: entry.lastTime)
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
        guard isLike(likeness) else { return false }
        count += 1
        lastTime = now
        return true
    }
}
