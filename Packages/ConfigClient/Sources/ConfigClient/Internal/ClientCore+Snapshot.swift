@_spi(Internal) @_spi(Locking) internal import ConfigModel

extension ClientCore {
    /// Every config held, read under the lock at once and described after it: no evaluation is recorded and no
    /// hook runs.
    func snapshot() -> ConfigSnapshot {
        // The index is immutable: retained under the lock, it is read after it.
        let (index, context, source, isReady) = state.read { state, _ in
            (state.pointee.table.index, state.pointee.context, state.pointee.source, state.pointee.isReady)
        }
        let configs = index.slots.sorted { $0.key.key < $1.key.key }.map { key, slot -> ConfigSnapshot.Config in
            let value = index.values[slot]
            let text = value.state.value.flatMap { $0.isEmpty ? nil : $0 }
            return ConfigSnapshot.Config(
                key: key.key.name,
                type: value.state.type,
                value: text,
                valueID: text.map { value.state.valueID ?? ValueID(of: $0).rawValue },
                reason: text == nil ? .valueMissing : .foundMatch,
                source: text == nil ? .codeDefault : value.isOverride ? .override : source.ofAValueServed
            )
        }
        return ConfigSnapshot(context: context, valueSource: source, isReady: isReady, configs: configs)
    }
}
