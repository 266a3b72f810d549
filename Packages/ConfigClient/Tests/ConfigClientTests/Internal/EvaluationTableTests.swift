@_spi(Internal) import ConfigModel
import Testing

@testable @_spi(Internal) import ConfigClient

/// `EvaluationTable` and `EvaluationIndex`: each held key has a slot and a revision; a slot is stable
/// while its key is held and reused once it is removed; a revision is new each time the config changes;
/// and a table built with `applying(_:)` never writes what the table it came from holds.
@Suite("EvaluationTable", .timeLimit(.minutes(1)))
struct EvaluationTableTests {
    private static func config(_ value: String, type: ConfigType = .string) -> ConfigState {
        ConfigState(type: type, value: value)
    }

    private static func set(_ configs: [String: String], kind: ConfigSet.Kind = .full) -> ConfigSet {
        ConfigSet(kind: kind, configs: Dictionary(uniqueKeysWithValues: configs.map { (ExactKey($0), config($1)) }))
    }

    private static func text(_ table: EvaluationTable, _ key: String) -> String? {
        let index = table.index
        guard let entry = index.entry(for: key) else { return nil }
        guard case .text(let text) = index.values.text(in: entry.slot, readableAs: .string) else { return nil }
        return text
    }

    private static func entry(_ table: EvaluationTable, _ key: String) -> EvaluationTable.Entry? {
        table.unretained.read { $0.entry(for: key) }
    }

    @Test("an empty table holds nothing")
    func emptyTable() {
        let table = EvaluationTable()
        #expect(Self.entry(table, "a") == nil)
        #expect(table["a"] == nil)
        #expect(table.configs.isEmpty)
    }

    @Test("a full set gives each key its own slot and a revision, and reads its config")
    func fullSetAssignsSlots() {
        var table = EvaluationTable()
        let update = table.apply(Self.set(["a": "1", "b": "2", "c": "3"]))
        #expect(update.keys == ["a", "b", "c"])
        let entries = ["a", "b", "c"].compactMap { Self.entry(table, $0) }
        #expect(entries.count == 3)
        #expect(Set(entries.map(\.slot)) == [0, 1, 2])
        #expect(Set(entries.map(\.revision)).count == 3)
        #expect(entries.allSatisfy { $0.revision > 0 })
        #expect(Self.text(table, "b") == "2")
        #expect(table["c"]?.value == "3")
        #expect(Self.entry(table, "d") == nil)
    }

    @Test("a changed config keeps its slot and gets a new revision; an untouched one keeps both")
    func deltaKeepsSlots() throws {
        var table = EvaluationTable()
        table.apply(Self.set(["a": "1", "b": "2"]))
        let a = try #require(Self.entry(table, "a"))
        let b = try #require(Self.entry(table, "b"))
        table.apply(Self.set(["a": "10"], kind: .delta))
        let changed = try #require(Self.entry(table, "a"))
        #expect(changed.slot == a.slot)
        #expect(changed.revision > max(a.revision, b.revision))
        #expect(Self.entry(table, "b") == b)
        #expect(Self.text(table, "a") == "10")
        #expect(Self.text(table, "b") == "2")
    }

    @Test("a full set frees the slots of the keys it drops, and new keys reuse them")
    func removedSlotsAreReused() throws {
        var table = EvaluationTable()
        table.apply(Self.set(["a": "1", "b": "2", "c": "3"]))
        let b = try #require(Self.entry(table, "b"))
        let update = table.apply(Self.set(["a": "1", "c": "3"]))
        #expect(update.removedKeys == ["b"])
        #expect(Self.entry(table, "b") == nil)
        #expect(table["b"] == nil)
        table.apply(Self.set(["d": "4"], kind: .delta))
        let d = try #require(Self.entry(table, "d"))
        #expect(d.slot == b.slot)
        #expect(d.revision > b.revision)
        #expect(Self.text(table, "d") == "4")
    }

    @Test("a table built with applying(_:) leaves the one it came from as it was")
    func applyingLeavesTheOriginal() throws {
        var original = EvaluationTable()
        original.apply(Self.set(["a": "1", "b": "2"]))
        let before = try #require(Self.entry(original, "a"))
        let oldIndex = original.index
        let (next, update) = original.applying(Self.set(["a": "9", "c": "3"]))
        #expect(update.keys == ["a", "c"])
        #expect(update.removedKeys == ["b"])
        // The original still reads its own configs, through the same index.
        #expect(original.index === oldIndex)
        #expect(original.unretained.read { $0 === oldIndex })
        #expect(Self.entry(original, "a") == before)
        #expect(Self.text(original, "a") == "1")
        #expect(Self.text(original, "b") == "2")
        #expect(Self.entry(original, "c") == nil)
        #expect(Self.text(next, "a") == "9")
        #expect(Self.text(next, "c") == "3")
        #expect(Self.entry(next, "b") == nil)
        #expect(next.index !== oldIndex)
    }

    @Test("a config received again unchanged keeps its revision; a changed one does not")
    func unchangedConfigKeepsRevision() throws {
        var table = EvaluationTable()
        table.apply(Self.set(["a": "1", "b": "2"]))
        let a = try #require(Self.entry(table, "a"))
        let b = try #require(Self.entry(table, "b"))
        table.apply(Self.set(["a": "1", "b": "3"]))
        #expect(Self.entry(table, "a") == a)
        let changed = try #require(Self.entry(table, "b"))
        #expect(changed.slot == b.slot)
        #expect(changed.revision > b.revision)
    }

    @Test("the configs by key are the ones held, after deltas and removals")
    func configsByKey() {
        var table = EvaluationTable()
        table.apply(Self.set(["a": "1", "b": "2", "c": "3"]))
        table.apply(Self.set(["b": "20", "d": "4"], kind: .delta))
        table.apply(Self.set(["b": "20", "c": "3", "d": "4"]))
        #expect(table.configs.mapValues { $0.value } == ["b": "20", "c": "3", "d": "4"])
    }

    @Test("the first set applied replaces the table whatever its kind")
    func firstSetIsFull() {
        var table = EvaluationTable()
        let update = table.apply(Self.set(["a": "1"], kind: .delta))
        #expect(update.keys == ["a"])
        #expect(table.configs.mapValues { $0.value } == ["a": "1"])
        let removed = table.apply(Self.set(["b": "2"], kind: .delta))
        #expect(removed.removedKeys.isEmpty)
        #expect(table.configs.count == 2)
    }

    @Test("a set not received (bundled or kept values) leaves the first one received to replace the table")
    func firstReceivedSetIsFull() {
        var table = EvaluationTable()
        table.apply(Self.set(["a": "1", "b": "2"]), isReceived: false)
        let update = table.apply(Self.set(["a": "9"], kind: .delta))
        #expect(update.removedKeys == ["b"])
        #expect(table.configs.mapValues { $0.value } == ["a": "9"])
        table.apply(Self.set(["c": "3"], kind: .delta))
        #expect(table.configs.mapValues { $0.value } == ["a": "9", "c": "3"])
    }

    @Test("slots grow past the buffer's capacity and every key reads its own config")
    func manyKeys() throws {
        var table = EvaluationTable()
        let count = 1_000
        var configs: [String: String] = [:]
        for index in 0..<count { configs["key-\(index)"] = "value-\(index)" }
        table.apply(Self.set(configs))
        let index = table.index
        #expect(index.values.capacity >= count)
        var slots = Set<Int>()
        for key in configs.keys {
            let entry = try #require(Self.entry(table, key))
            slots.insert(entry.slot)
            #expect(Self.text(table, key) == configs[key])
        }
        #expect(slots == Set(0..<count))
    }

    @Test("a slot reads as its kind reads it: missing values and mismatched types are unreadable")
    func readableText() throws {
        var table = EvaluationTable()
        table.apply(
            ConfigSet(configs: [
                "flag": ConfigState(type: .boolean, value: "true"),
                "empty": ConfigState(type: .string, value: nil),
                "doc": ConfigState(type: .json, value: "{}"),
            ]))
        let index = table.index
        let flag = try #require(index.entry(for: "flag"))
        let empty = try #require(index.entry(for: "empty"))
        let doc = try #require(index.entry(for: "doc"))
        #expect(index.values.text(in: flag.slot, readableAs: .boolean) == .text("true"))
        #expect(index.values.text(in: empty.slot, readableAs: .string) == .unreadable(.valueMissing))
        #expect(index.values.text(in: doc.slot, readableAs: .number) == .unreadable(.typeMismatch))
        #expect(index.values.text(in: doc.slot, readableAs: .string) == .text("{}"))
    }

    // MARK: - Local overrides

    @Test("an override takes its key's slot with a marked revision, hiding the served config until removed")
    func overrideHidesTheServedConfig() throws {
        var table = EvaluationTable()
        table.apply(Self.set(["a": "1", "b": "2"]))
        let served = try #require(Self.entry(table, "a"))

        #expect(table.setOverride(Self.config("forced"), for: "a") == ConfigsUpdate(keys: ["a"]))
        let overridden = try #require(Self.entry(table, "a"))
        #expect(overridden.slot == served.slot)
        #expect(overridden.isOverride && !served.isOverride)
        #expect(Self.text(table, "a") == "forced")
        // The served configs leave the override out: what is kept on the device and fingerprinted.
        #expect(table.configs == [ExactKey("a"): Self.config("1"), ExactKey("b"): Self.config("2")])
        #expect(table.overrides == [ExactKey("a"): Self.config("forced")])
        #expect(table.setOverride(Self.config("forced"), for: "a") == nil)

        // A delta and a full set change the config under the override; the override stays.
        table.apply(Self.set(["a": "3"], kind: .delta))
        #expect(Self.text(table, "a") == "forced")
        #expect(table.configs[ExactKey("a")] == Self.config("3"))

        #expect(table.removeOverride(for: "a") == ConfigsUpdate(keys: ["a"]))
        let restored = try #require(Self.entry(table, "a"))
        #expect(!restored.isOverride && restored.slot == served.slot)
        #expect(Self.text(table, "a") == "3")
        #expect(table.removeOverride(for: "a") == nil)
        #expect(table.overrides.isEmpty)
    }

    @Test("an override of a key not served is no served key: a full set does not remove it, its removal frees the slot")
    func overrideOfAnUnservedKey() throws {
        var table = EvaluationTable()
        table.apply(Self.set(["a": "1"]))
        #expect(table.setOverride(Self.config("x"), for: "only") == ConfigsUpdate(keys: ["only"]))
        let slot = try #require(Self.entry(table, "only")).slot
        #expect(table.configs.keys.map(\.name) == ["a"])

        let update = table.apply(Self.set(["b": "2"]))
        #expect(update.removedKeys == ["a"])
        #expect(Self.text(table, "only") == "x")

        // Served later, it goes under the override; a full set without it then takes it away from under it.
        table.apply(Self.set(["b": "2", "only": "served"]))
        #expect(table.configs[ExactKey("only")] == Self.config("served"))
        #expect(table.apply(Self.set(["b": "2"])).removedKeys == ["only"])
        #expect(Self.text(table, "only") == "x")

        #expect(table.removeOverride(for: "only") == ConfigsUpdate(keys: [], removedKeys: ["only"]))
        #expect(Self.entry(table, "only") == nil)
        table.apply(Self.set(["b": "2", "c": "3"]))
        #expect(Self.entry(table, "c")?.slot == slot)
    }
}
