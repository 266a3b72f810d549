@_spi(Internal) internal import ConfigModel

/// The configs a client holds (a ``ConfigStateTable``, with its merge rules), indexed for evaluation:
/// each key has a slot and a revision, so that an evaluation finds everything it needs with one hash
/// of the key, and reads it without retaining anything that other threads share.
///
/// Threads evaluating at once read the same objects. A read that retains an object writes to its
/// reference count, and two threads writing to one cache line run slower than one thread alone. So
/// evaluations read the ``EvaluationIndex`` through ``index``, an unmanaged reference (the table
/// keeps it alive), whose `let` properties Swift reads in place; the configs themselves sit in a
/// buffer that is never written once an index holds it: an apply writes a new buffer, so that the new
/// table is built off the client's lock (``applying(_:)``) while evaluations read the current one, and
/// published in one short step.
struct EvaluationTable {
    /// Where a config is, and which config it is: two numbers, copied out without retains.
    struct Entry: Equatable {
        /// A small number, stable while the key is held and reused after it is removed, that indexes
        /// per-key side tables such as a ``TelemetryCache``.
        let slot: Int
        /// A number unique in the table's life, new each time the key's config is replaced, so that a
        /// side table entry can tell whether it still describes the current config.
        let revision: UInt64
    }

    /// The configs, with the merge rules of PROTOCOL §3.
    private var table = ConfigStateTable()
    /// The index evaluations read; replaced when keys come or go.
    private var ownedIndex = EvaluationIndex(slots: [:], values: EvaluationIndex.Values(capacity: 0))
    /// ``ownedIndex``, unretained, for evaluations.
    private(set) var index: Unmanaged<EvaluationIndex>
    private var freeSlots: [Int] = []
    private var slotCount = 0
    private var lastRevision: UInt64 = 0
    /// A number that changes with each apply, so that a table built from this one can tell it was the
    /// last one applied when it is published.
    private(set) var generation: UInt64 = 0

    init() {
        index = .passUnretained(ownedIndex)
    }

    /// The configs by key.
    var configs: [String: ConfigState] { table.configs }

    /// The config held for `key`, if any.
    subscript(key: String) -> ConfigState? { table[key] }

    /// This table with `set` applied, built without writing anything this one holds: it can be
    /// built off the client's lock while evaluations read this one, then published by assignment.
    /// - Parameter set: The set received.
    /// - Returns: The new table, and the keys the set carried and removed, as the table tells them.
    func applying(_ set: ConfigSet) -> (table: EvaluationTable, update: ConfigsUpdate) {
        var next = self
        let update = next.apply(set)
        return (next, update)
    }

    /// Applies a config set with the rules of ``ConfigStateTable/apply(_:)``.
    ///
    /// The configs go into a new buffer and a new index: the ones readers may be reading are never
    /// written (see ``applying(_:)``).
    /// - Parameter set: The set received.
    /// - Returns: The keys the set carried and the keys it removed, as the table tells them.
    mutating func apply(_ set: ConfigSet) -> ConfigsUpdate {
        let update = table.apply(set)
        var slots = ownedIndex.slots
        var freed: [Int] = []
        for key in update.removedKeys {
            guard let slot = slots.removeValue(forKey: key) else { continue }
            freed.append(slot)
        }
        freeSlots += freed
        for key in update.keys where slots[key] == nil {
            slots[key] = takeSlot()
        }
        let values = ownedIndex.values.copy(toHold: slotCount)
        for slot in freed { values[slot] = EvaluationIndex.Value() }
        for key in update.keys {
            guard let state = table[key], let slot = slots[key] else { continue }
            lastRevision += 1
            values[slot] = EvaluationIndex.Value(revision: lastRevision, state: state)
        }
        ownedIndex = EvaluationIndex(slots: slots, values: values)
        index = .passUnretained(ownedIndex)
        generation += 1
        return update
    }

    private mutating func takeSlot() -> Int {
        if let slot = freeSlots.popLast() { return slot }
        defer { slotCount += 1 }
        return slotCount
    }
}
