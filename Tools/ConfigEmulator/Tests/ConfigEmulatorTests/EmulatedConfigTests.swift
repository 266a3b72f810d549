@_spi(Internal) import ConfigModel
import Foundation
import Testing

@testable import ConfigEmulator

@Suite("Configs and their per-context values", .timeLimit(.minutes(3)))
struct EmulatedConfigTests {
    let config = EmulatedConfig(
        key: "limit", type: .integer, value: 1,
        rules: [
            ContextRule(id: "ada", value: 2),
            ContextRule(kind: "tenant", id: "acme", value: 3),
            ContextRule(trait: "plan", equals: "pro", value: 4),
            ContextRule(kind: "device", value: 5),
        ]
    )

    @Test("serves the first matching rule's value by kind and id, by trait, by kind, else the default")
    func perContextValues() {
        #expect(config.state(for: ConfigDirectorContext(id: "ada")).value == "2")
        #expect(config.state(for: ConfigDirectorContext(id: "ada", kind: "user")).value == "2")
        #expect(config.state(for: ConfigDirectorContext(id: "ada", kind: "tenant")).value == "1")
        #expect(config.state(for: ConfigDirectorContext(id: "acme", kind: "tenant")).value == "3")
        #expect(config.state(for: ConfigDirectorContext(id: "acme")).value == "1")
        #expect(config.state(for: ConfigDirectorContext(id: "bob", traits: ["plan": "pro"])).value == "4")
        #expect(config.state(for: ConfigDirectorContext(id: "ada", traits: ["plan": "pro"])).value == "2")
        #expect(config.state(for: ConfigDirectorContext(traits: ["plan": "free"])).value == "1")
        #expect(config.state(for: ConfigDirectorContext(id: "phone", kind: "device")).value == "5")
        #expect(config.state(for: ConfigDirectorContext()).value == "1")
    }

    @Test(
        "serves every config type's value as its wire text",
        arguments: [
            (ConfigType.boolean, JSONValue.bool(true), "true" as String?),
            (.string, "plain text", "plain text"),
            (.integer, 42, "42"),
            (.float, 2.5, "2.5"),
            (.enum, "express", "express"),
            (.url, "https://example.com/a", "https://example.com/a"),
            (.json, JSONValue.dictionary(["b": 1, "a": [true, nil]]), #"{"a":[true,null],"b":1}"#),
            (.json, "text", #""text""#),
            (.custom, "v2", "v2"),
            (.string, nil, nil),
        ])
    func wireText(type: ConfigType, value: JSONValue, expected: String?) {
        let state = EmulatedConfig(key: "k", type: type, value: value).state(for: ConfigDirectorContext())
        #expect(state.value == expected)
        #expect(state.type == type)
        #expect(state.id == "k")
    }

    @Test("decodes the shipped example file, which uses every config type")
    func exampleFile() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/configs.json")
        let document = try ConfigsDocument.load(from: url)
        #expect(Set(document.configs.map(\.type)) == Set(ConfigType.allCases))
        #expect(document.environmentID == "env-local")
        let darkMode = try #require(document.configs.first { $0.key == "dark-mode" })
        #expect(darkMode.state(for: ConfigDirectorContext(id: "x", traits: ["plan": "pro"])).value == "true")
    }

    @Test("rejects a rule without a condition and a trait without a value to equal, saying where")
    func invalidRules() {
        let noCondition = #"{"configs": [{"key": "a", "type": "string", "rules": [{"value": "x"}]}]}"#
        #expect(throws: EmulatorError.self) { try ConfigsDocument.decode(Data(noCondition.utf8)) }
        let noEquals = #"{"configs": [{"key": "a", "type": "string", "rules": [{"trait": "t", "value": "x"}]}]}"#
        do {
            _ = try ConfigsDocument.decode(Data(noEquals.utf8))
            Issue.record("decoded a trait rule without equals")
        } catch let EmulatorError.invalidConfigs(reason) {
            #expect(reason.contains(".configs[0].rules[0]"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("round-trips a config with rules and a null trait value through JSON")
    func roundTrip() throws {
        let config = EmulatedConfig(
            key: "k", type: .json, value: ["a": 1], id: "c1", valueID: "v1",
            rules: [ContextRule(trait: "region", equals: .null, value: nil, valueID: "none")]
        )
        let decoded = try JSONDecoder().decode(EmulatedConfig.self, from: JSONEncoder().encode(config))
        #expect(decoded == config)
        #expect(decoded.rules[0].matches(ConfigDirectorContext(traits: ["region": nil])))
        #expect(!decoded.rules[0].matches(ConfigDirectorContext()))
    }
}
