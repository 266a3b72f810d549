@_spi(Internal) internal import ConfigModel

/// The configs of an ``EvaluationTable`` as evaluations read them: the slot of each key, and the
/// config and revision in each slot. The one place the client holds its configs.
///
/// Immutable once built: the table writes an index's values only before it publishes it, and an apply
/// builds a new index rather than write one that evaluations may be reading.
final class EvaluationIndex: @unchecked Sendable {  // Values are written only before the index is shared.
    /// One slot: the config and its revision (zero for a free slot).
    struct Value {
        var revision: UInt64 = 0
        var state = ConfigState(type: .string, value: nil)
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

    init(slots: [IndexKey: Int], values: Values) {
        self.slots = slots
        self.values = values
    }

    /// An index of no config.
    convenience init() {
        self.init(slots: [:], values: Values(capacity: 0))
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

    /// Every config by key, made on each call: for the kept values and tests, never for an evaluation.
    var configs: [ExactKey: ConfigState] {
        var configs: [ExactKey: ConfigState] = [:]
        configs.reserveCapacity(slots.count)
        for (key, slot) in slots { configs[key.key] = values[slot].state }
        return configs
    }
}
