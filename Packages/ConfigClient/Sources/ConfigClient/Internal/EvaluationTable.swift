@_spi(Internal) internal import ConfigModel

/// The configs a client holds (a ``ConfigStateTable``, with its merge rules), indexed for evaluation:
/// each key has a slot and a revision, so that an evaluation finds everything it needs with one hash
/// of the key, and reads it without retaining anything that other threads share.
///
/// Threads evaluating at once read the same objects. A read that retains an object writes to its
/// reference count, and two threads writing to one cache line run slower than one thread alone. So
/// evaluations read the ``EvaluationIndex`` through ``index``, an unmanaged reference (the table
/// keeps it alive), whose `let` properties Swift reads in place; the configs themselves sit in a
/// buffer that the table writes in place while every stripe of the client's lock is held.
struct EvaluationTable {
    /// Where a config is, and which config it is: two numbers, copied out without retains.
    struct Entry {
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

    init() {
        index = .passUnretained(ownedIndex)
    }

    /// The configs by key.
    var configs: [String: ConfigState] { table.configs }

    /// The config held for `key`, if any.
    subscript(key: String) -> ConfigState? { table[key] }

    /// Applies a config set with the rules of ``ConfigStateTable/apply(_:)``.
    ///
    /// A config that changes is written in its slot; the index is rebuilt only when keys come or go.
    /// - Parameter set: The set received.
    /// - Returns: The keys the set carried and the keys it removed, as the table tells them.
    mutating func apply(_ set: ConfigSet) -> ConfigsUpdate {
        let update = table.apply(set)
        var slots = ownedIndex.slots
        let keyCount = slots.count
        for key in update.removedKeys {
            guard let slot = slots.removeValue(forKey: key) else { continue }
            ownedIndex.values[slot] = EvaluationIndex.Value()
            freeSlots.append(slot)
        }
        for key in update.keys where slots[key] == nil {
            slots[key] = takeSlot()
        }
        var values = ownedIndex.values
        if slotCount > values.capacity { values = values.grown(toHold: slotCount) }
        for key in update.keys {
            guard let state = table[key], let slot = slots[key] else { continue }
            lastRevision += 1
            values[slot] = EvaluationIndex.Value(revision: lastRevision, state: state)
        }
        if slots.count != keyCount || !update.removedKeys.isEmpty || values !== ownedIndex.values {
            ownedIndex = EvaluationIndex(slots: slots, values: values)
            index = .passUnretained(ownedIndex)
        }
        return update
    }

    private mutating func takeSlot() -> Int {
        if let slot = freeSlots.popLast() { return slot }
        defer { slotCount += 1 }
        return slotCount
    }
}
