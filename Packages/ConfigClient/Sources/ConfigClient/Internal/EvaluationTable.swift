internal import ConfigModel

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

/// The part of an ``EvaluationTable`` that evaluations read: immutable but for the configs in its
/// slots, which the table writes only while every stripe of the client's lock is held.
final class EvaluationIndex: @unchecked Sendable {  // Values are written only under every stripe's lock.
    /// One slot: the config and its revision (zero for a free slot).
    struct Value {
        var revision: UInt64 = 0
        var state = ConfigState(type: .string, value: nil)
    }

    /// The slots' values, in memory the table manages, so that reading one field of a slot copies
    /// that field alone. Shared by successive indexes while it has room.
    final class Values {
        let capacity: Int
        private let base: UnsafeMutablePointer<Value>

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
            base.initialize(repeating: Value(), count: capacity)
        }

        deinit {
            base.deinitialize(count: capacity)
            base.deallocate()
        }

        subscript(slot: Int) -> Value {
            get { base[slot] }
            set { base[slot] = newValue }
        }

        /// The revision in `slot`, read alone.
        func revision(in slot: Int) -> UInt64 { base[slot].revision }

        /// The text of the config in `slot` as a reader of `kind` sees it, copying only its value.
        func text(in slot: Int, readableAs kind: ConfigValueKind) -> ConfigState.ReadableText {
            ConfigState.text(base[slot].state.value, of: base[slot].state.type, readableAs: kind)
        }

        /// A copy with room for `count` slots, at least twice this one's.
        func grown(toHold count: Int) -> Values {
            let grown = Values(capacity: max(count, 2 * capacity, 16))
            for slot in 0..<capacity { grown[slot] = self[slot] }
            return grown
        }
    }

    /// The slot of each key.
    let slots: [String: Int]
    /// The configs by slot.
    let values: Values

    init(slots: [String: Int], values: Values) {
        self.slots = slots
        self.values = values
    }

    /// Where the config of `key` is, and which config it is; `nil` when the table holds none.
    func entry(for key: String) -> EvaluationTable.Entry? {
        guard let slot = slots[key] else { return nil }
        return EvaluationTable.Entry(slot: slot, revision: values.revision(in: slot))
    }
}
