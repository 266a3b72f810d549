@_spi(Internal) internal import ConfigModel

/// The watchers of each key, so that an update refreshes only the watchers of the keys it changed.
///
/// Refreshes are taken under the client's lock, numbered in the order taken, and run after it is
/// released; a watcher skips a refresh older than one it has run, so that it ends on the newest value.
struct WatchRegistry {
    /// By the key's exact bytes (``ExactKey``), as the configs are.
    private var watchersByKey: [ExactKey: [UInt64: any KeyWatcher]] = [:]
    private var nextID: UInt64 = 0
    private var lastRefresh: UInt64 = 0

    /// A new id for a watcher about to be added.
    mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Adds a watcher of `key` under `id`.
    mutating func add(_ watcher: any KeyWatcher, id: UInt64, for key: String) {
        watchersByKey[ExactKey(key), default: [:]][id] = watcher
    }

    /// Removes the watcher with `id` from `key`.
    mutating func remove(_ id: UInt64, for key: String) {
        let key = ExactKey(key)
        watchersByKey[key]?.removeValue(forKey: id)
        if watchersByKey[key]?.isEmpty == true { watchersByKey.removeValue(forKey: key) }
    }

    /// The refreshes of the watchers of the keys `update` carried or removed, in that order. It looks
    /// up the keys watched rather than the keys of the update when they are fewer: a set of 100,000
    /// configs and a few watchers cost a few lookups.
    mutating func refreshes(of update: ConfigsUpdate) -> [WatcherRefresh] {
        guard !watchersByKey.isEmpty else { return [] }
        let count = update.keys.count + update.removedKeys.count
        guard watchersByKey.count < count else {
            return refreshes(of: (update.keys + update.removedKeys).lazy.map { ExactKey($0) })
        }
        // Both lists are in ExactKey's order: a binary search finds a watched key in either.
        func holds(_ keys: [String], _ key: ExactKey) -> Bool {
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if ExactKey(keys[middle]) < key { low = middle + 1 } else { high = middle }
            }
            return low < keys.count && ExactKey(keys[low]) == key
        }
        let watched = watchersByKey.keys.sorted()
        return refreshes(
            of: watched.filter { holds(update.keys, $0) } + watched.filter { holds(update.removedKeys, $0) })
    }

    /// The refreshes of the watchers of `keys`.
    mutating func refreshes(of keys: some Sequence<ExactKey>) -> [WatcherRefresh] {
        var refreshes: [WatcherRefresh] = []
        for key in keys {
            guard let watchers = watchersByKey[key] else { continue }
            lastRefresh += 1
            for watcher in watchers.values {
                refreshes.append(WatcherRefresh(watcher: watcher, number: lastRefresh))
            }
        }
        return refreshes
    }

    /// The refresh of one watcher, just added.
    mutating func refresh(of watcher: any KeyWatcher) -> WatcherRefresh {
        lastRefresh += 1
        return WatcherRefresh(watcher: watcher, number: lastRefresh)
    }

    /// Removes every watcher and returns them.
    mutating func removeAll() -> [any KeyWatcher] {
        defer { watchersByKey = [:] }
        return watchersByKey.values.flatMap(\.values)
    }
}
