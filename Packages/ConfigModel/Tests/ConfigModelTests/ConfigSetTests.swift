@_spi(Internal) import ConfigModel
import Foundation
import Testing

@Suite("Config sets", .timeLimit(.minutes(1)))
struct ConfigSetTests {
    @Test("decode the protocol's example")
    func decodesExample() throws {
        let set = try Self.decode(
            #"""
            {
              "environmentId": "env-1", "projectId": "proj-1", "kind": "full",
              "timestamp": "2026-08-29T00:00:00Z",
              "configs": {
                "dark-mode": { "id": "c1", "key": "dark-mode", "type": "boolean", "value": "true", "valueId": "on" },
                "theme":     { "id": "c2", "key": "theme", "type": "json", "value": "{\"primary\":\"#101010\"}" }
              }
            }
            """#
        )
        #expect(set.environmentID == "env-1")
        #expect(set.projectID == "proj-1")
        #expect(set.kind == .full)
        #expect(set.timestamp == "2026-08-29T00:00:00Z")
        #expect(
            set.configs["dark-mode"]
                == ConfigState(id: "c1", key: "dark-mode", type: .boolean, value: "true", valueID: "on")
        )
        #expect(
            set.configs["theme"] == ConfigState(id: "c2", key: "theme", type: .json, value: ##"{"primary":"#101010"}"##)
        )
    }

    @Test("treat every field but configs as optional")
    func everyFieldOptional() throws {
        let set = try Self.decode(#"{"configs":{}}"#)
        #expect(set == ConfigSet(configs: [:]))
        #expect(set.environmentID == nil && set.projectID == nil && set.timestamp == nil)

        let state = try Self.decode(#"{"configs":{"k":{}}}"#).configs["k"]
        #expect(state == ConfigState(type: .custom, value: nil))
    }

    @Test(
        "read a missing, unknown or malformed kind as full",
        arguments: [
            #"{"configs":{}}"#, #"{"kind":"partial","configs":{}}"#, #"{"kind":"FULL","configs":{}}"#,
            #"{"kind":1,"configs":{}}"#, #"{"kind":null,"configs":{}}"#, #"{"kind":"full","configs":{}}"#,
        ])
    func kindDefaultsToFull(text: String) throws {
        #expect(try Self.decode(text).kind == .full)
    }

    @Test("read a delta")
    func delta() throws {
        #expect(try Self.decode(#"{"kind":"delta","configs":{}}"#).kind == .delta)
    }

    @Test(
        "read every known type and an unknown or missing one as custom",
        arguments: [
            ("custom", ConfigType.custom), ("boolean", .boolean), ("string", .string), ("integer", .integer),
            ("float", .float), ("enum", .enum), ("url", .url), ("json", .json), ("color", .custom),
            ("Boolean", .custom),
        ])
    func types(name: String, expected: ConfigType) throws {
        let set = try Self.decode(#"{"configs":{"k":{"type":"\#(name)","value":"v"}}}"#)
        #expect(set.configs["k"]?.type == expected)
    }

    @Test(
        "read a missing or malformed type as custom", arguments: [#"{"value":"v"}"#, #"{"type":3}"#, #"{"type":null}"#])
    func malformedType(entry: String) throws {
        #expect(try Self.decode(#"{"configs":{"k":\#(entry)}}"#).configs["k"]?.type == .custom)
    }

    @Test(
        "keep a value sent as a string as it is",
        arguments: [(#""true""#, "true"), (#""42""#, "42"), (#""""#, ""), (#""  spaced ""#, "  spaced ")])
    func valueText(json: String, expected: String) throws {
        let set = try Self.decode(#"{"configs":{"k":{"type":"string","value":\#(json)}}}"#)
        #expect(set.configs["k"]?.value == expected)
    }

    @Test(
        "read a value that is not a string as no value (PROTOCOL §3: a string or null)",
        arguments: ["null", "[1]", #"{"a":1}"#, "true", "false", "42", "-7", "2.5"])
    func noValue(json: String) throws {
        #expect(try Self.decode(#"{"configs":{"k":{"value":\#(json)}}}"#).configs["k"]?.value == nil)
        #expect(try Self.decode(#"{"configs":{"k":{"type":"string"}}}"#).configs["k"]?.value == nil)
    }

    @Test("skip entries that are not objects and keep the others")
    func skipsMalformedEntries() throws {
        let set = try Self.decode(
            #"{"configs":{"a":1,"b":"x","c":null,"d":[],"e":true,"ok":{"type":"boolean","value":"true"}}}"#
        )
        #expect(set.configs == ["ok": ConfigState(type: .boolean, value: "true")])
    }

    @Test("ignore fields of the wrong type and unknown fields")
    func ignoresMalformedFields() throws {
        let set = try Self.decode(
            #"{"environmentId":1,"projectId":[],"timestamp":false,"extra":"x","#
                + #""configs":{"k":{"id":2,"key":3,"valueId":4,"value":"v","more":1}}}"#
        )
        #expect(set == ConfigSet(configs: ["k": ConfigState(type: .custom, value: "v")]))
    }

    @Test(
        "fail to decode when the payload or its configs are not objects",
        arguments: [
            "[]", "null", #""set""#, #"{"configs":[]}"#, #"{"configs":"x"}"#,
        ])
    func refusesNonObjects(text: String) {
        #expect(throws: (any Error).self) { try Self.decode(text) }
    }

    @Test("survive an encode and decode round trip, omitting nil fields")
    func roundTrip() throws {
        let set = ConfigSet(
            environmentID: "env-1",
            kind: .delta,
            timestamp: "2026-08-29T00:00:00Z",
            configs: [
                "a": ConfigState(id: "c1", key: "a", type: .integer, value: "1", valueID: "v1"),
                "b": ConfigState(type: .json, value: nil),
            ]
        )
        let data = try JSONEncoder().encode(set)
        #expect(try JSONDecoder().decode(ConfigSet.self, from: data) == set)
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("null") && !text.contains("projectId"))
    }

    @Test("decode a config type on its own leniently")
    func configTypeAlone() throws {
        #expect(try JSONDecoder().decode(ConfigType.self, from: Data(#""url""#.utf8)) == .url)
        #expect(try JSONDecoder().decode(ConfigType.self, from: Data(#""geo""#.utf8)) == .custom)
        #expect(try JSONEncoder().encode(ConfigType.enum) == Data(#""enum""#.utf8))
    }

    private static func decode(_ text: String) throws -> ConfigSet {
        try JSONDecoder().decode(ConfigSet.self, from: Data(text.utf8))
    }
}
