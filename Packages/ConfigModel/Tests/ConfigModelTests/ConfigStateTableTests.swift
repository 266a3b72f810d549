@_spi(Internal) import ConfigModel
import Testing

@Suite("Merging config sets into state", .timeLimit(.minutes(1)))
struct ConfigStateTableTests {
    private static func state(_ value: String) -> ConfigState { ConfigState(type: .string, value: value) }

    @Test("starts empty, having received nothing")
    func startsEmpty() {
        let table = ConfigStateTable()
        #expect(table.configs.isEmpty)
        #expect(!table.hasReceivedSet)
        #expect(table["any"] == nil)
    }

    @Test("applies the first set as full, whatever its kind", arguments: [ConfigSet.Kind.full, .delta])
    func firstSetIsFull(kind: ConfigSet.Kind) {
        var table = ConfigStateTable()
        let update = table.apply(ConfigSet(kind: kind, configs: ["b": Self.state("2"), "a": Self.state("1")]))
        #expect(update == ConfigsUpdate(keys: ["a", "b"], removedKeys: []))
        #expect(table.hasReceivedSet)
        #expect(table.configs == ["a": Self.state("1"), "b": Self.state("2")])
        #expect(table["a"] == Self.state("1"))
    }

    @Test("marks an empty first set as received")
    func emptyFirstSet() {
        var table = ConfigStateTable()
        #expect(table.apply(ConfigSet(kind: .delta, configs: [:])) == ConfigsUpdate(keys: []))
        #expect(table.hasReceivedSet)
    }

    @Test("replaces the whole state with a full set and reports the removed keys, sorted")
    func fullReplaces() {
        var table = ConfigStateTable()
        table.apply(ConfigSet(configs: ["z": Self.state("1"), "a": Self.state("1"), "m": Self.state("1")]))
        let update = table.apply(ConfigSet(kind: .full, configs: ["m": Self.state("2"), "b": Self.state("2")]))
        #expect(update.keys == ["b", "m"])
        #expect(update.removedKeys == ["a", "z"])
        #expect(table.configs == ["m": Self.state("2"), "b": Self.state("2")])
    }

    @Test("removes everything with an empty full set")
    func emptyFullSet() {
        var table = ConfigStateTable()
        table.apply(ConfigSet(configs: ["b": Self.state("1"), "a": Self.state("1")]))
        #expect(table.apply(ConfigSet(kind: .full, configs: [:])) == ConfigsUpdate(keys: [], removedKeys: ["a", "b"]))
        #expect(table.configs.isEmpty)
        #expect(table.hasReceivedSet)
    }

    @Test("merges a delta key by key without touching other keys or removing any")
    func deltaMerges() {
        var table = ConfigStateTable()
        table.apply(ConfigSet(configs: ["a": Self.state("1"), "b": Self.state("1"), "c": Self.state("1")]))
        let update = table.apply(ConfigSet(kind: .delta, configs: ["d": Self.state("2"), "b": Self.state("2")]))
        #expect(update == ConfigsUpdate(keys: ["b", "d"], removedKeys: []))
        #expect(
            table.configs == ["a": Self.state("1"), "b": Self.state("2"), "c": Self.state("1"), "d": Self.state("2")]
        )
    }

    @Test("keeps a key a delta omits, since a delta has no tombstones")
    func deltaNeverRemoves() {
        var table = ConfigStateTable()
        table.apply(ConfigSet(configs: ["a": Self.state("1")]))
        #expect(table.apply(ConfigSet(kind: .delta, configs: [:])) == ConfigsUpdate(keys: []))
        #expect(table["a"] == Self.state("1"))
        // A delta that sets a null value keeps the key with no value.
        table.apply(ConfigSet(kind: .delta, configs: ["a": ConfigState(type: .string, value: nil)]))
        #expect(table["a"] == ConfigState(type: .string, value: nil))
    }

    @Test("reports the keys a set carried even when their values did not change")
    func reportsUnchangedKeys() {
        var table = ConfigStateTable()
        table.apply(ConfigSet(configs: ["a": Self.state("1")]))
        #expect(table.apply(ConfigSet(kind: .delta, configs: ["a": Self.state("1")])).keys == ["a"])
        #expect(table.apply(ConfigSet(kind: .full, configs: ["a": Self.state("1")])) == ConfigsUpdate(keys: ["a"]))
    }
}
