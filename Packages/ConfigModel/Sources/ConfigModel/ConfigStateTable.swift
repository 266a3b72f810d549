/// The configs a client holds, with the merge rules of PROTOCOL §3.
///
/// A full set replaces the whole table, a delta merges key by key, and the first set applied is
/// taken as full whatever its kind.
@_spi(Internal) public struct ConfigStateTable: Sendable, Hashable {
    /// The configs by key.
    public private(set) var configs: [ExactKey: ConfigState]
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
    public subscript(key: String) -> ConfigState? { configs[ExactKey(key)] }

    /// Applies a config set: a full set (or the first set) replaces the table, a delta merges into it.
    /// - Parameter set: The set received.
    /// - Returns: The keys the set carried (sorted) and, for a full set, the keys it removed (sorted).
    @discardableResult
    public mutating func apply(_ set: ConfigSet) -> ConfigsUpdate {
        let (replacesAll, update) = Self.changes(of: set, holding: configs.keys, hasReceivedSet: hasReceivedSet)
        if replacesAll {
            configs = set.configs
            hasReceivedSet = true
        } else {
            configs.merge(set.configs) { _, new in new }
        }
        return update
    }

    /// What applying a config set to a table holding `heldKeys` does: the rules of ``apply(_:)``, for
    /// tables that hold their configs otherwise.
    /// - Parameters:
    ///   - set: The set received.
    ///   - heldKeys: The keys the table holds.
    ///   - hasReceivedSet: Whether the table has had a set applied.
    /// - Returns: Whether the set replaces the table (a full set, or the first one), and the keys it
    ///   carried and removed (the held keys a replacing set does not carry), each in ``ExactKey``'s order.
    public static func changes(
        of set: ConfigSet,
        holding heldKeys: some Sequence<ExactKey>,
        hasReceivedSet: Bool
    ) -> (replacesAll: Bool, update: ConfigsUpdate) {
        let keys = ExactKey.sortedNames(set.configs.keys)
        guard set.kind == .full || !hasReceivedSet else { return (false, ConfigsUpdate(keys: keys)) }
        let removedKeys = ExactKey.sortedNames(heldKeys.filter { set.configs[$0] == nil })
        return (true, ConfigsUpdate(keys: keys, removedKeys: removedKeys))
    }
}
