@_spi(Internal) internal import ConfigModel

/// The configs a client holds, with the merge rules of ``ConfigStateTable`` (PROTOCOL §3), indexed for
/// evaluation: each key has a slot and a revision, so that an evaluation finds everything it needs
/// with one hash of the key, and reads it without retaining anything that other threads share.
///
/// The configs are held once, in the ``EvaluationIndex``. Threads evaluating at once read the same
/// index; a read that retained it would write to its reference count, and two threads writing to one
/// cache line run slower than one thread alone. So evaluations reach it through ``unretained`` (see
/// ``Unretained``). An apply never writes the index evaluations may be reading: it builds a new one,
/// so that the new table is built off the client's lock (``applying(_:)``) while evaluations read the
/// current one, and is published by one assignment.
struct EvaluationTable {
    /// Where a config is, and which config it is: two numbers, copied out without retains.
    struct Entry: Equatable {
        /// A small number, stable while the key is held and reused after it is removed, that indexes
        /// per-key side tables such as a ``TelemetryCache``.
        let slot: Int
        /// A number unique in the table's life, new each time the key's config changes (a config
        /// received again unchanged keeps its revision), so that a side table entry can tell whether
        /// it still describes the current config. Its top bit marks a local override.
        let revision: UInt64

        /// Whether the config is a local override.
        var isOverride: Bool { revision & EvaluationIndex.Value.overrideFlag != 0 }
    }

    /// The index, reachable without a retain.
    ///
    /// The invariant that makes it safe, enforced here and by the client's lock: the table holds the
    /// index that ``unretained`` refers to (``index``) and replaces both at once, only in a mutation
    /// of the table; the client mutates its table only while it holds every stripe of its lock, or
    /// on a copy that no evaluation reads. So an evaluation that holds any one stripe reads an index
    /// that lives until it releases that stripe.
    struct Unretained {
        fileprivate let reference: Unmanaged<EvaluationIndex>

        /// Runs `body` with the index, borrowed without a retain. `Unmanaged.takeUnretainedValue()`,
        /// `unowned(unsafe)`, `withExtendedLifetime` and a `borrowing` parameter all retain the index
        /// or its slots' storage when read through the lock's state pointer (checked in the assembly
        /// of `swiftc -O`): this underscored call is the one that does not.
        /// - Parameter body: Reads the index; call it only under a stripe of the client's lock.
        /// - Returns: What `body` returns.
        @inline(__always)
        func read<Result>(_ body: (EvaluationIndex) throws -> Result) rethrows -> Result {
            try reference._withUnsafeGuaranteedRef(body)
        }
    }

    /// The index evaluations read: every config held, by slot. Replaced, never written, by an apply.
    private(set) var index = EvaluationIndex()
    /// ``index``, unretained, for evaluations.
    private(set) var unretained: Unretained
    private var freeSlots: [Int] = []
    private var slotCount = 0
    /// The newest revision given: it changes with every config the table changes.
    private(set) var lastRevision: UInt64 = 0
    private var hasReceivedSet = false

    init() {
        unretained = Unretained(reference: .passUnretained(index))
    }

    /// The configs served by key, made on each call (see ``EvaluationIndex/configs``).
    var configs: [ExactKey: ConfigState] { index.configs }

    /// The config held for `key`, if any.
    subscript(key: String) -> ConfigState? { index[key] }

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
    /// written (see ``applying(_:)``). A config equal to the one held keeps its revision. A config of a key
    /// with a local override goes under it (``EvaluationIndex/hidden``); the override stays.
    /// - Parameters:
    ///   - set: The set.
    ///   - isReceived: Whether it came from the service (or offline values). Values bundled with the app or
    ///     kept on the device are not received: the first set received after them still replaces the
    ///     whole table whatever its kind (PROTOCOL §3), so that no config the service dropped since lingers.
    /// - Returns: The keys the set carried and the keys it removed, as the table tells them.
    @discardableResult
    mutating func apply(_ set: ConfigSet, isReceived: Bool = true) -> ConfigsUpdate {
        let held = index
        let (_, update) = ConfigStateTable.changes(
            of: set, holding: held.servedKeys, hasReceivedSet: hasReceivedSet)
        if isReceived { hasReceivedSet = true }
        var slots = held.slots
        var hidden = held.hidden
        var freed: [Int] = []
        for key in update.removedKeys {
            let lookup = IndexKey(lookingUp: key)
            guard let slot = slots[lookup] else { continue }
            if held.values[slot].isOverride {
                hidden[ExactKey(key)] = nil
                continue
            }
            slots[lookup] = nil
            freed.append(slot)
        }
        freeSlots += freed
        for key in set.configs.keys {
            // Checked for ASCII once, as it goes into the index; the lookups below need not be.
            let held = IndexKey(held: key)
            if slots[held] == nil { slots[held] = takeSlot() }
        }
        let values = held.values.copy(toHold: slotCount)
        for slot in freed { values[slot] = EvaluationIndex.Value() }
        for (key, state) in set.configs {
            guard let slot = slots[IndexKey(lookingUp: key.name)] else { continue }
            if values[slot].isOverride {
                hidden[key] = state
                continue
            }
            if values[slot].revision != 0, values[slot].state == state { continue }
            lastRevision += 1
            values[slot] = EvaluationIndex.Value(revision: lastRevision, state: state)
        }
        publish(slots: slots, values: values, hidden: hidden, overrideCount: held.overrideCount)
        return update
    }

    /// The local overrides, by key.
    var overrides: [ExactKey: ConfigState] {
        guard index.overrideCount > 0 else { return [:] }
        var overrides: [ExactKey: ConfigState] = [:]
        for (key, slot) in index.slots where index.values[slot].isOverride {
            overrides[key.key] = index.values[slot].state
        }
        return overrides
    }

    /// Serves `state` for `key` over any config served for it, which waits under the override.
    /// - Returns: The key, as a change; `nil` when the key already had this override.
    mutating func setOverride(_ state: ConfigState, for key: String) -> ConfigsUpdate? {
        setOverrides([(ExactKey(key), state)])
    }

    /// Removes the local override of `key`: the config served for it, if any, is served again.
    /// - Returns: The key, as a change (removed when nothing is served for it); `nil` when it had no override.
    mutating func removeOverride(for key: String) -> ConfigsUpdate? {
        removeOverrides(for: [ExactKey(key)])
    }

    /// Serves each state for its key over any config served for it, which waits under the override; a key given
    /// twice keeps its last state. One new index holds them all.
    /// - Returns: The keys whose override changed; `nil` when none did.
    mutating func setOverrides(_ overrides: some Sequence<(key: ExactKey, state: ConfigState)>) -> ConfigsUpdate? {
        let latest = Dictionary(overrides.map { ($0.key, $0.state) }, uniquingKeysWith: { _, last in last })
        let held = index
        var slots = held.slots
        var hidden = held.hidden
        var overrideCount = held.overrideCount
        var writes: [(slot: Int, state: ConfigState)] = []
        var changed: [ExactKey] = []
        for (key, state) in latest {
            let slot: Int
            if let existing = slots[IndexKey(lookingUp: key.name)] {
                slot = existing
                let current = held.values[slot]
                if current.isOverride {
                    guard current.state != state else { continue }
                } else {
                    hidden[key] = current.state
                    overrideCount += 1
                }
            } else {
                slot = takeSlot()
                slots[IndexKey(held: key)] = slot
                overrideCount += 1
            }
            writes.append((slot, state))
            changed.append(key)
        }
        guard !writes.isEmpty else { return nil }
        let values = held.values.copy(toHold: slotCount)
        for (slot, state) in writes {
            lastRevision += 1
            values[slot] = EvaluationIndex.Value(
                revision: lastRevision | EvaluationIndex.Value.overrideFlag, state: state)
        }
        publish(slots: slots, values: values, hidden: hidden, overrideCount: overrideCount)
        return ConfigsUpdate(keys: ExactKey.sortedNames(changed))
    }

    /// Removes the local overrides of `keys`: the config served for each, if any, is served again. One new index
    /// holds the change.
    /// - Returns: The keys served again, and those removed (nothing is served for them); `nil` when none had an
    ///   override.
    mutating func removeOverrides(for keys: some Sequence<ExactKey>) -> ConfigsUpdate? {
        let held = index
        var slots = held.slots
        var hidden = held.hidden
        var writes: [(slot: Int, value: EvaluationIndex.Value)] = []
        var restored: [ExactKey] = []
        var removed: [ExactKey] = []
        for key in Set(keys) {
            let lookup = IndexKey(lookingUp: key.name)
            guard let slot = slots[lookup], held.values[slot].isOverride else { continue }
            if let served = hidden.removeValue(forKey: key) {
                lastRevision += 1
                writes.append((slot, EvaluationIndex.Value(revision: lastRevision, state: served)))
                restored.append(key)
            } else {
                slots[lookup] = nil
                writes.append((slot, EvaluationIndex.Value()))
                freeSlots.append(slot)
                removed.append(key)
            }
        }
        guard !writes.isEmpty else { return nil }
        let values = held.values.copy(toHold: slotCount)
        for (slot, value) in writes { values[slot] = value }
        publish(slots: slots, values: values, hidden: hidden, overrideCount: held.overrideCount - writes.count)
        return ConfigsUpdate(keys: ExactKey.sortedNames(restored), removedKeys: ExactKey.sortedNames(removed))
    }

    /// Makes a new index of these the one evaluations read.
    private mutating func publish(
        slots: [IndexKey: Int], values: EvaluationIndex.Values, hidden: [ExactKey: ConfigState], overrideCount: Int
    ) {
        index = EvaluationIndex(slots: slots, values: values, hidden: hidden, overrideCount: overrideCount)
        unretained = Unretained(reference: .passUnretained(index))
    }

    private mutating func takeSlot() -> Int {
        if let slot = freeSlots.popLast() { return slot }
        defer { slotCount += 1 }
        return slotCount
    }
}
