@_spi(Internal) internal import ConfigModel

/// The configs of an ``EvaluationTable`` as evaluations read them: the slot of each key, and the
/// config and revision in each slot. The one place the client holds its configs.
///
/// A key with a local override holds the override in its slot, its revision marked (``Value/isOverride``); the
/// config served for the key, if any, waits in ``hidden`` until the override is removed.
///
/// Immutable once built: the table writes an index's values only before it publishes it, and an apply
/// builds a new index rather than write one that evaluations may be reading.
final class EvaluationIndex: @unchecked Sendable {  // Values are written only before the index is shared.
    /// One slot: the config and its revision (zero for a free slot).
    struct Value {
        /// The top bit of a revision that marks a local override.
        static let overrideFlag: UInt64 = 1 << 63

        var revision: UInt64 = 0
        var state = ConfigState(type: .string, value: nil)

        /// Whether the slot holds a local override.
        var isOverride: Bool { revision & Self.overrideFlag != 0 }
    }

    /// The slots' values, in memory the table manages, so that reading one field of a slot copies
    /// that field alone. Each index has its own.
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

        /// The type of the config in `slot`, read alone.
        func type(in slot: Int) -> ConfigType { base[slot].state.type }

        /// The value id the server sent with the config in `slot`, read alone.
        func valueID(in slot: Int) -> String? { base[slot].state.valueID }

        /// The text of the config in `slot` as a reader of `kind` sees it, copying only its value.
        func text(in slot: Int, readableAs kind: ConfigValueKind) -> ConfigState.ReadableText {
            ConfigState.text(base[slot].state.value, of: base[slot].state.type, readableAs: kind)
        }

        /// A copy with room for `count` slots: this one's capacity, or twice it when `count` is more.
        func copy(toHold count: Int) -> Values {
            let copy = Values(capacity: count > capacity ? max(count, 2 * capacity, 16) : capacity)
            copy.base.update(from: base, count: capacity)
            return copy
        }
    }

    /// The slot of each key, by its exact bytes (``IndexKey``).
    let slots: [IndexKey: Int]
    /// The configs by slot.
    let values: Values
    /// The configs served for keys that a local override holds, by key; empty without overrides.
    let hidden: [ExactKey: ConfigState]
    /// How many slots hold a local override.
    let overrideCount: Int

    init(slots: [IndexKey: Int], values: Values, hidden: [ExactKey: ConfigState], overrideCount: Int) {
        self.slots = slots
        self.values = values
        self.hidden = hidden
        self.overrideCount = overrideCount
    }

    /// An index of no config.
    convenience init() {
        self.init(slots: [:], values: Values(capacity: 0), hidden: [:], overrideCount: 0)
    }

    /// Where the config of `key` is, and which config it is; `nil` when the index holds none.
    func entry(for key: String) -> EvaluationTable.Entry? {
        guard let slot = slots[IndexKey(lookingUp: key)] else { return nil }
        return EvaluationTable.Entry(slot: slot, revision: values.revision(in: slot))
    }

    /// The config held for `key`, if any.
    subscript(key: String) -> ConfigState? {
        guard let slot = slots[IndexKey(lookingUp: key)] else { return nil }
        return values[slot].state
    }

    /// Every config served by key, overrides set aside, made on each call: for the kept values, safe mode
    /// and tests, never for an evaluation.
    var configs: [ExactKey: ConfigState] {
        var configs: [ExactKey: ConfigState] = [:]
        configs.reserveCapacity(slots.count)
        for (key, config) in served { configs[key] = config }
        return configs
    }

    /// The configs served, overrides set aside: the config of each slot, or for an overridden key the one
    /// ``hidden`` keeps, if any.
    var served: some Sequence<(key: ExactKey, config: ConfigState)> {
        slots.lazy.compactMap { key, slot -> (key: ExactKey, config: ConfigState)? in
            let value = self.values[slot]
            guard value.isOverride else { return (key.key, value.state) }
            return self.hidden[key.key].map { (key.key, $0) }
        }
    }

    /// How many configs ``served`` holds.
    var servedCount: Int { slots.count - overrideCount + hidden.count }

    /// The keys of ``served``.
    var servedKeys: some Sequence<ExactKey> {
        let hasOverrides = overrideCount > 0
        return slots.lazy.filter { key, slot in
            !hasOverrides || !self.values[slot].isOverride || self.hidden[key.key] != nil
        }.map(\.key.key)
    }
}
