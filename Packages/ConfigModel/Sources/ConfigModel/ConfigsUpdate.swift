/// What a config set changed: the keys it carried and the keys a full set removed.
public struct ConfigsUpdate: Sendable, Hashable {
    /// The keys the set carried; on a delta, only the configs that changed.
    public var keys: [String]
    /// The keys a full set no longer includes; always empty for a delta.
    public var removedKeys: [String]

    /// Creates an update.
    /// - Parameters:
    ///   - keys: The keys the set carried.
    ///   - removedKeys: The keys a full set dropped.
    public init(keys: [String], removedKeys: [String] = []) {
        self.keys = keys
        self.removedKeys = removedKeys
    }
}
