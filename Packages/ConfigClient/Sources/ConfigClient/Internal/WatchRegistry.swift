/// The watchers of each key, so that an update refreshes only the watchers of the keys it changed.
struct WatchRegistry {
    private var watchersByKey: [String: [UInt64: any KeyWatcher]] = [:]
    private var nextID: UInt64 = 0

    /// A new id for a watcher about to be added.
    mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Adds a watcher of `key` under `id`.
    mutating func add(_ watcher: any KeyWatcher, id: UInt64, for key: String) {
        watchersByKey[key, default: [:]][id] = watcher
    }

    /// Removes the watcher with `id` from `key`.
    mutating func remove(_ id: UInt64, for key: String) {
        watchersByKey[key]?.removeValue(forKey: id)
        if watchersByKey[key]?.isEmpty == true { watchersByKey.removeValue(forKey: key) }
    }

    /// The watchers of `key`.
    func watchers(of key: String) -> Dictionary<UInt64, any KeyWatcher>.Values? {
        watchersByKey[key]?.values
    }

    /// Removes every watcher and returns them.
    mutating func removeAll() -> [any KeyWatcher] {
        defer { watchersByKey = [:] }
        return watchersByKey.values.flatMap(\.values)
    }
}
