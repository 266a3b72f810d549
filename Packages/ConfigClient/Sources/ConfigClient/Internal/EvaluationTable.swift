internal import ConfigModel

/// The configs a client holds (a ``ConfigStateTable``, with its merge rules), indexed for evaluation:
/// each key's entry carries a slot and a revision, so that an evaluation finds everything it needs
/// with one hash of the key.
struct EvaluationTable {
    /// Where a config is, and which config it is, as evaluations see it: copying it out of the
    /// table retains nothing, so that threads evaluating at once never write to memory they share.
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
    private var entries: [String: Entry] = [:]
    /// The configs by slot; a free slot holds ``vacant``. Not optional, so that reading a config in
    /// place does not copy it out of an optional first.
    private var states: [ConfigState] = []
    private static let vacant = ConfigState(type: .string, value: nil)
    private var freeSlots: [Int] = []
    private var lastRevision: UInt64 = 0

    /// The entry held for `key`, if any.
    func entry(for key: String) -> Entry? { entries[key] }

    /// The configs by key.
    var configs: [String: ConfigState] { table.configs }

    /// The config held for `key`, if any.
    subscript(key: String) -> ConfigState? { table[key] }

    /// The config in a slot of an entry of the table.
    func state(in slot: Int) -> ConfigState {
        states[slot]
    }

    /// The text of the config in `slot` as a reader of `kind` sees it, read in place.
    func text(in slot: Int, readableAs kind: ConfigValueKind) -> ConfigState.ReadableText {
        states[slot].text(readableAs: kind)
    }

    /// Applies a config set with the rules of ``ConfigStateTable/apply(_:)``.
    /// - Parameter set: The set received.
    /// - Returns: The keys the set carried and the keys it removed, as the table tells them.
    mutating func apply(_ set: ConfigSet) -> ConfigsUpdate {
        let update = table.apply(set)
        for key in update.removedKeys {
            guard let removed = entries.removeValue(forKey: key) else { continue }
            states[removed.slot] = Self.vacant
            freeSlots.append(removed.slot)
        }
        for key in update.keys {
            guard let state = table[key] else { continue }
            lastRevision += 1
            let slot = entries[key]?.slot ?? takeSlot()
            entries[key] = Entry(slot: slot, revision: lastRevision)
            states[slot] = state
        }
        return update
    }

    private mutating func takeSlot() -> Int {
        if let slot = freeSlots.popLast() { return slot }
        states.append(Self.vacant)
        return states.count - 1
    }
}
