/// The configs a client holds, with the merge rules of PROTOCOL §3.
///
/// A full set replaces the whole table, a delta merges key by key, and the first set applied is
/// taken as full whatever its kind.
@_spi(Internal) public struct ConfigStateTable: Sendable, Hashable {
    /// The configs by key.
    public private(set) var configs: [String: ConfigState]
    /// Whether any set has been applied.
    public private(set) var hasReceivedSet: Bool

    /// Creates an empty table that has received nothing.
    public init() {
        configs = [:]
        hasReceivedSet = false
    }

    /// Looks up the config held for a key.
    /// - Parameter key: The config key.
    /// - Returns: The config, or `nil` when the table holds none for `key`.
    public subscript(key: String) -> ConfigState? { configs[key] }

    /// Applies a config set: a full set (or the first set) replaces the table, a delta merges into it.
    /// - Parameter set: The set received.
    /// - Returns: The keys the set carried (sorted) and, for a full set, the keys it removed (sorted).
    @discardableResult
    public mutating func apply(_ set: ConfigSet) -> ConfigsUpdate {
        let keys = set.configs.keys.sorted()
        guard set.kind == .full || !hasReceivedSet else {
            configs.merge(set.configs) { _, new in new }
            return ConfigsUpdate(keys: keys)
        }
        let removedKeys = configs.keys.filter { set.configs[$0] == nil }.sorted()
        configs = set.configs
        hasReceivedSet = true
        return ConfigsUpdate(keys: keys, removedKeys: removedKeys)
    }
}
