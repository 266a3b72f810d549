@_spi(Internal) internal import ConfigModel

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
