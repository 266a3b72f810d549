@_spi(Internal) import ConfigModel
import Testing

@testable import ConfigClient

@Suite(
    "WatchRegistry: the watchers of the keys an update changed, refreshes numbered in order", .timeLimit(.minutes(1)))
struct WatchRegistryTests {
    /// A watcher that only has a name: the tests read the refreshes, not what running them does.
    private final class NamedWatcher: KeyWatcher {
        let name: String
        init(_ name: String) { self.name = name }
        func refresh(number: UInt64) {}
        func finish() {}
    }

    private static func names(_ refreshes: [WatcherRefresh]) -> [String] {
        refreshes.map { ($0.watcher as! NamedWatcher).name }
    }

    /// A registry watching `keys`, one watcher each, named after its key.
    private static func registry(watching keys: [String]) -> WatchRegistry {
        var registry = WatchRegistry()
        for key in keys { registry.add(NamedWatcher(key), id: registry.makeID(), for: key) }
        return registry
    }

    @Test("refreshes the watchers of the keys carried, then of those removed, numbered in that order")
    func refreshesChangedKeys() throws {
        var registry = Self.registry(watching: ["a", "b", "gone", "untouched"])
        let refreshes = registry.refreshes(of: ConfigsUpdate(keys: ["a", "b"], removedKeys: ["gone"]))
        #expect(Self.names(refreshes) == ["a", "b", "gone"])
        #expect(refreshes.map(\.number) == [1, 2, 3])
    }

    @Test("looking up the watched keys or the update's keys finds the same refreshes, in the update's order")
    func bothLookupsAgree() {
        let keys = (0..<50).map { "key-\($0 + 100)" }
        let update = ConfigsUpdate(keys: Array(keys.prefix(40)), removedKeys: Array(keys.suffix(10)))
        // Few watchers (fewer than the update's keys) and many (more): both strategies.
        var few = Self.registry(watching: ["key-105", "key-145", "key-139", "missing"])
        #expect(Self.names(few.refreshes(of: update)) == ["key-105", "key-139", "key-145"])
        var many = Self.registry(watching: keys + (0..<60).map { "other-\($0)" })
        #expect(Self.names(many.refreshes(of: update)) == keys)
    }

    @Test("numbers every refresh in the order taken, the single ones included")
    func numbering() {
        var registry = Self.registry(watching: ["a"])
        let second = NamedWatcher("a2")
        registry.add(second, id: registry.makeID(), for: "a")
        let both = registry.refreshes(of: ["a"])
        #expect(Set(Self.names(both)) == ["a", "a2"])
        #expect(both.map(\.number) == [1, 1])
        let single = registry.refresh(of: second)
        #expect(single.number == 2)
        #expect(registry.refreshes(of: ["a"]).map(\.number) == [3, 3])
    }

    @Test("removes one watcher, the key with its last watcher, and every watcher at once")
    func removal() {
        var registry = WatchRegistry()
        let first = registry.makeID()
        let second = registry.makeID()
        #expect(first != second)
        registry.add(NamedWatcher("one"), id: first, for: "k")
        registry.add(NamedWatcher("two"), id: second, for: "k")
        registry.add(NamedWatcher("other"), id: registry.makeID(), for: "j")
        registry.remove(first, for: "k")
        #expect(Self.names(registry.refreshes(of: ["k"])) == ["two"])
        registry.remove(second, for: "k")
        #expect(registry.refreshes(of: ["k"]).isEmpty)
        let all = registry.removeAll()
        #expect(all.map { ($0 as! NamedWatcher).name } == ["other"])
        #expect(registry.refreshes(of: ConfigsUpdate(keys: ["j"])).isEmpty)
    }
}
