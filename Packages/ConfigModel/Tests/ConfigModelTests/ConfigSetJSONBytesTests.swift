@_spi(Internal) @_spi(Storage) import ConfigModel
import Foundation
import TestSupport
import Testing

@Suite(
    "ConfigSet(jsonBytes:) reads RFC 8259 JSON with §3's leniency, as the parsed document says, and nothing else",
    .timeLimit(.minutes(1)))
struct ConfigSetJSONBytesTests {
    /// Entries wrapped into a set by ``corpus``: each exercises one lenient rule or one refusal.
    private static let entries = [
        #"{}"#, #"{"id":"c1","key":"k","type":"boolean","value":true,"valueId":"v1"}"#,
        #"{"type":"geo","value":"x"}"#, #"{"type":7}"#, #"{"type":null,"value":null}"#, #"{"type":"url",}"#,
        #"{"value":false}"#, #"{"value":[1,{"a":[]}]}"#, #"{"value":{"x":1}}"#, #"{"value":"\u00e9\ud83d\ude00"}"#,
        #"{"value":"\ud800"}"#, #"{"value":"\udc00x"}"#, #"{"value":"\ud83dA"}"#, #"{"value":"\x"}"#,
        #"{"value":"\uZZZZ"}"#, #"{"value":"\U00e9"}"#, "{\"value\":\"a\tb\"}", "{\"value\":\"\u{1F}\"}",
        #"{"value":"\u0000"}"#, #"{"value":"\/\b\f\n\r\t\"\\"}"#, "{\"value\":\"\u{7F}\"}",
        #"{"value":"x","value":"y"}"#, #"{"value":1,"value":"y"}"#, #"{"key":"a","key":"b"}"#,
        #"{"k\u0065y":"escaped name"}"#, #"{"key":"k\u0065y"}"#, #"{"\x":1,"value":"bad key"}"#,
        #"{"\ud800":1}"#, "{\"\t\":1}", #"{"other":{"\q":1},"value":"bad key in a skipped value"}"#,
        #"{"id":1,"key":[],"valueId":{},"value":"v","more":[1,2,]}"#, #"{"value":-}"#,
        "5", "\"text\"", "null", "[]", "[1,2]", "true",
    ]

    /// Numbers, valid JSON or not: as a value they are the wrong type (no value), inside a skipped value
    /// only their validity counts.
    private static let numbers = [
        "0", "-0", "1", "-1", "42", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "12345678901234567890", "1.0", "-0.0", "0.0", "100.0", "1.5", "-1.5", "0.1",
        "2.5", "12.5", "1e2", "1E2", "1e+2", "1e-5", "1.25e1", "0.5e1", "4.5e1", "1e18", "1e19", "1e308",
        "1.7976931348623157e308", "1e-400", "5e-324", "2.2250738585072014e-308",
        "1.0000000000000001", "123456789012345678.5", "9.2233720368547758e18", "00", "01", "-01", "1.",
        "1e", "1e+", "1.2.3", "1-2", "--1", "-.5", "1ee2", "1E+-2", "1.e5", "-0e", "3.14159", "-2.718281828",
    ]

    /// Whole documents: structure, repeated keys, depth and the set's own fields.
    private static let documents = [
        "{}", " {} ", "\u{FEFF}{}", "", " ", "[]", "null", "\"x\"", "5", "{} x", "{}{", "{},", "{,}",
        #"{"configs":null}"#, #"{"configs":{}}"#, #"{"configs":[]}"#, #"{"configs":"x"}"#, #"{"configs":1}"#,
        #"{"configs":{},}"#, #"{"configs":{"a":{},}}"#, #"{"configs":{"a":{}},"configs":[]}"#,
        #"{"configs":[],"configs":{}}"#, #"{"configs":null,"configs":{"a":{}}}"#,
        #"{"configs":{"a":{}},"configs":null}"#,
        #"{"configs":{"a":{"value":"1"},"a":{"value":"2"}}}"#, #"{"configs":{"a":5,"a":{"value":"2"}}}"#,
        #"{"configs":{"a":{"value":"1"},"\u0061":{"value":"2"}}}"#, #"{"configs":{"\x":{}}}"#,
        #"{"configs":{"a":{}}, "\x":1}"#, #"{"kind":"delta"}"#, #"{"kind":"full"}"#, #"{"kind":"other"}"#,
        #"{"kind":1}"#, #"{"kind":"delta","kind":"full"}"#, #"{"k\u0069nd":"delta"}"#,
        #"{"environmentId":"e","projectId":"p","timestamp":"t"}"#, #"{"environmentId":1,"projectId":null}"#,
        #"{"environmentId":"a","environmentId":"b"}"#, #"{"x":[1 2]}"#, #"{"x":{"a" 1}}"#, #"{"x":{1:2}}"#,
        #"{"x":[,]}"#, #"{"x":[1,,2]}"#, #"{"x":[1,]}"#, #"{"x":{"b":1,,"c":2}}"#, #"{"x":{"b"}}"#,
        #"{"x":{"b":}}"#, #"{"x":[}"#, #"{"x":{]}"#, #"{"x":"#, #"{"x":[1"#, #"{"x":"a"#, #"{"x":1}}"#,
        #"{"x":"\u12"}"#, #"{"x":"\ud83d\ude0"}"#, #"{"x":-a}"#, #"{"x":0x10}"#, #"{"x":1a}"#, #"{"x":.5}"#,
        #"{"x":+1}"#, #"{"x":NaN}"#, #"{"x":tru}"#, #"{"x":true1}"#, #"{"x":nul}"#, #"{"x":nullx}"#,
        #"{"x":truefalse}"#, #"{"x":"a"1}"#, #"{"x":1"a"}"#, #"{"x":[1]2}"#, "{\"x\":\u{0B}1}",
        "{\"x\":1\u{0C}}", "{\"kind\"\n:\r\"delta\"\t}", #"{"x" : [ { } , [ ] ] , "kind" : "delta" , }"#,
        #"{"x":"\"}"#, #"{"x":"\\"}"#, #"{"x":"\u"}"#, #"{"x":"\"#, #"{"x":"#, #"{"x":"\u1234"}"#,
        #"{"x":"\uZZZZ"}"#, #"{"x":"\uZZZ"}"#, #"{"x":"\ude"0"}"#, #"{"x":"\u"123"}"#, #"{"x":"\u0"0"1"}"#,
        #"{"x":"\ud83d\ude"0"}"#, #"{"x":"\ud83d\u"}"#, #"{"x":"\ud83d\x"}"#, #"{"x":"\"0"}"#,
    ]

    private static var corpus: [String] {
        entries.map { #"{"configs":{"k":\#($0),"other":{"value":"kept"}}}"# }
            + numbers.map { #"{"configs":{"k":{"type":"float","value":\#($0)}}}"# }
            + numbers.map { #"{"configs":{"k":{"value":[\#($0)]}}}"# }
            + documents
    }

    @Test("agree with the parsed document on every case of the corpus")
    func corpusAgrees() {
        for text in Self.corpus {
            Self.expectAgreement(Array(text.utf8))
            Self.expectEmbeddedAgreement(Array(text.utf8))
        }
    }

    @Test("agree with the parsed document on strings that are not valid UTF-8, in values and in keys")
    func invalidUTF8Agrees() {
        let invalid: [[UInt8]] = [
            [0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
        ]
        let valid: [[UInt8]] = [[0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xEF, 0xBF, 0xBF]]
        for bytes in invalid + valid {
            let templates = [
                #"{"configs":{"k":{"value":"a@b"}}}"#, #"{"configs":{"k":{"a@b":1,"value":"v"}}}"#,
                #"{"configs":{"a@b":{"value":"v"}}}"#, #"{"a@b":1}"#, #"{"x":{"a@b":"@"}}"#,
                #"{"configs":{"k":{"value":"\n@"}}}"#,
            ]
            for template in templates {
                let document = Array(template.utf8).flatMap { $0 == UInt8(ascii: "@") ? bytes : [$0] }
                let decodes = Self.expectAgreement(document)
                let isSet = template.hasPrefix(#"{"configs""#)
                #expect(decodes == (isSet && valid.contains(bytes)), "\(bytes) in \(template)")
            }
        }
    }

    @Test("agree with the parsed document on thousands of random config sets")
    func randomSetsAgree() {
        var generator = SplitMix64(seed: 0x5EED_0009)
        var decoded = 0
        for _ in 0..<3_000 {
            let document = Self.randomDocument(using: &generator)
            if Self.expectAgreement(Array(document.utf8)) { decoded += 1 }
            Self.expectEmbeddedAgreement(Array(document.utf8))
        }
        // Many generated documents decode (some have no configs object, some hold an invalid string): the check
        // would prove little otherwise.
        #expect(decoded > 400)
    }

    @Test("agree with the parsed document, and never crash or hang, on mutated, truncated and random bytes")
    func mutatedBytesAgree() {
        var generator = SplitMix64(seed: 0xF00D_0009)
        let alphabet = Array(#"{}[]:,"\/bfnrtu0123456789-+.eEaxlsDdFf "#.utf8) + [0x00, 0x0A, 0x1F, 0x7F, 0xC3, 0xFF]
        for iteration in 0..<3_000 {
            var bytes = Array(Self.randomDocument(using: &generator).utf8)
            if iteration % 5 == 0 {
                bytes = (0..<Int.random(in: 0...60, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }
            }
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes.remove(at: index)
                case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: index)
                case 2: bytes[index] = alphabet.randomElement(using: &generator)!
                default: bytes = Array(bytes.prefix(index))
                }
            }
            Self.expectAgreement(bytes)
            Self.expectEmbeddedAgreement(bytes)
        }
    }

    @Test(
        "refuse what RFC 8259 refuses, where JSONDecoder is lenient",
        arguments: [
            #"{"configs":{},}"#, #"{"configs":{"a":{},}}"#, #"{"configs":{"a":{"value":"v",}}}"#, #"{"x":[1,]}"#,
            #"{"x":{"a":1,}}"#, #"{"x":01}"#, #"{"x":1.}"#, #"{"x":-}"#, #"{"x":1e}"#, #"{"x":1-2}"#, #"{"x":.5}"#,
            #"{"x":1.2.3}"#, #"{"configs":{"k":{"value":1e+}}}"#, "{\"x\":\"a\u{7F}\u{1F}\"}",
        ]
    )
    func strictGrammar(text: String) {
        #expect(throws: JSONParsingError.self) { try ConfigSet(jsonBytes: text.utf8) }
        #expect(throws: (any Error).self) { try JSONValue(parsing: text) }
    }

    @Test(
        "read an object without a configs object as no config set, never as a full set that removes every config",
        arguments: [
            "{}", #"{"ts": 1733100000}"#, #"{"type":"heartbeat"}"#, #"{"configs":null}"#, "\u{FEFF} {} ",
            #"{"kind":"full","timestamp":"2026-08-29T00:00:00Z","environmentId":"env-1"}"#,
            #"{"Configs":{"a":{}}}"#,
        ]
    )
    func notAConfigSet(text: String) throws {
        #expect(try ConfigSet(jsonBytes: text.utf8) == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ConfigSet.self, from: Data(text.utf8)) }
        let member = text.replacingOccurrences(of: "\u{FEFF}", with: "")
        let embedded = try ConfigSet.decodingDocument(
            jsonBytes: #"{"formatVersion":1,"configSet":\#(member)}"#.utf8, setMember: "configSet")
        #expect(embedded.set == nil)
        // An empty configs object is a set: a full one clears the state, as the service means it to.
        #expect(try ConfigSet(jsonBytes: #"{"configs":{}}"#.utf8) == ConfigSet(configs: [:]))
    }

    @Test("take a number too large for a Double as JSON in a set, where a parsed document cannot hold it")
    func hugeNumbers() throws {
        for number in ["1e400", "-1.8e308"] {
            let text = #"{"x":[\#(number)],"configs":{"k":{"value":\#(number)},"j":{"value":"v"}}}"#
            let set = try #require(try ConfigSet(jsonBytes: text.utf8))
            #expect(
                set.configs == [
                    "k": ConfigState(type: .custom, value: nil), "j": ConfigState(type: .custom, value: "v"),
                ])
            #expect(throws: JSONParsingError.self) { try JSONValue(parsing: text) }
        }
    }

    @Test("read a value that is not a string as no value, and let the last of repeated keys win")
    func leniencyOfSection3() throws {
        for value in ["true", "7", "-1.5", "1e3", "null", "[1]", #"{"a":"b"}"#] {
            let set = try #require(
                try ConfigSet(jsonBytes: #"{"configs":{"k":{"type":"integer","value":\#(value)}}}"#.utf8))
            #expect(set.configs["k"] == ConfigState(type: .integer, value: nil), "value \(value)")
        }
        let repeated = try ConfigSet(
            jsonBytes:
                #"{"kind":"full","kind":"delta","configs":{"a":{"value":"1"},"a":{"value":"2","value":"3"},"b":{},"b":5}}"#
                .utf8
        )
        #expect(repeated == ConfigSet(kind: .delta, configs: ["a": ConfigState(type: .custom, value: "3")]))
    }

    @Test("read a bundled file's literal value as the text it would be on the wire, and a string as itself")
    func bundledLiteralValues() throws {
        let cases: [(literal: String, text: String?)] = [
            ("true", "true"), ("false", "false"), ("42", "42"), ("-1.5", "-1.5"), ("1e3", "1000.0"),
            (#"{"b":1, "a":[true, null]}"#, #"{"a":[true,null],"b":1}"#), ("[1, \"two\"]", #"[1,"two"]"#),
            (##""{\"primary\":\"#101010\"}""##, ##"{"primary":"#101010"}"##), (#""plain""#, "plain"), ("null", nil),
        ]
        for (literal, text) in cases {
            let file = #"{"configs":{"k":{"type":"json","value":\#(literal)},"j":{"value":"v"}}}"#
            let set = try #require(try ConfigSet(bundledJSONBytes: file.utf8))
            #expect(
                set.configs == [
                    "k": ConfigState(type: .json, value: text), "j": ConfigState(type: .custom, value: "v"),
                ], "value \(literal)")
            // The wire keeps PROTOCOL §3's leniency: a value that is not a string is no value.
            let wire = try #require(try ConfigSet(jsonBytes: file.utf8))
            #expect(wire.configs["k"]?.value == (literal.hasPrefix("\"") ? text : nil), "value \(literal)")
        }
        #expect(throws: JSONParsingError.self) {
            try ConfigSet(bundledJSONBytes: #"{"configs":{"k":{"value":1e400}}}"#.utf8)
        }
        #expect(throws: JSONParsingError.self) {
            try ConfigSet(bundledJSONBytes: #"{"configs":{"k":{"value":tru}}}"#.utf8)
        }
    }

    @Test("bound the depth of skipped values at 512, the outer object included, without recursion")
    func deepNesting() throws {
        for depth in [1, 100, 509, 510, 511, 512, 513, 100_000] {
            let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let objects = String(repeating: #"{"y":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            for nested in [arrays, objects] {
                Self.expectAgreement(Array(#"{"x":\#(nested),"kind":"delta"}"#.utf8))
                Self.expectAgreement(Array(#"{"configs":{"k":{"value":\#(nested)},"j":\#(nested)}}"#.utf8))
                Self.expectEmbeddedAgreement(Array(#"{"configs":{"k":{"value":\#(nested)}},"x":\#(nested)}"#.utf8))
            }
        }
        // Unclosed nesting far past the limit fails quickly instead of exhausting memory or the stack.
        let unclosed = #"{"x":"# + String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONParsingError.self) { try ConfigSet(jsonBytes: Array(unclosed.utf8)) }
    }

    @Test("decode huge strings and escaped unicode")
    func hugeStringsAndUnicode() throws {
        let huge = String(repeating: "abcdé€😀", count: 20_000)
        let escaped = String(repeating: #"\u00e9\ud83d\ude00\n\""#, count: 5_000)
        let text = #"{"configs":{"k":{"value":"\#(huge)"},"e":{"value":"\#(escaped)"},"\#(huge)":{}}}"#
        let set = try #require(try ConfigSet(jsonBytes: Data(text.utf8)))
        #expect(set.configs["k"]?.value == huge)
        #expect(set.configs["e"]?.value == String(repeating: "é😀\n\"", count: 5_000))
        #expect(set.configs[ExactKey(huge)] == ConfigState(type: .custom, value: nil))
        Self.expectAgreement(Array(text.utf8))
    }

    @Test("read a string's UTF-8 view, a byte array and a non-contiguous collection alike")
    func inputKinds() throws {
        let text = #"{"kind":"delta","configs":{"k":{"key":"k","type":"integer","value":"7"}}}"#
        let expected = ConfigSet(
            kind: .delta, configs: ["k": ConfigState(key: "k", type: .integer, value: "7")])
        #expect(try ConfigSet(jsonBytes: text.utf8) == expected)
        #expect(try ConfigSet(jsonBytes: Array(text.utf8)) == expected)
        #expect(try ConfigSet(jsonBytes: Data(text.utf8)) == expected)
        #expect(try ConfigSet(jsonBytes: text.utf8.lazy.map { $0 }) == expected)
        let error = #expect(throws: JSONParsingError.self) { try ConfigSet(jsonBytes: #"{"configs":[]}"#.utf8) }
        #expect(error?.offset == 11)
    }

    @Test(
        "decode a set embedded in a document, and the document's other members, as the parsed document says",
        arguments: [
            #"{"configSet":{"kind":"delta"}}"#, #"{"a":[1,{"b":null}],"configSet":{"configs":{"k":{}}},"z":2}"#,
            #"{"configSet":null}"#, #"{"configSet":[]}"#, #"{"configSet":1}"#, #"{}"#, #"{"other":{}}"#, "[]",
            #"{"configSet":{"kind":"delta"},"configSet":{}}"#, #"{"configSet":5,"configSet":{}}"#,
            #"{"configSet":{},"\x":1}"#, #"{"configSet":{}} x"#, #"{"configSet":{},}"#, #"{"configSet":{}"#,
            #"{"x":{"\x":1},"configSet":{"kind":"delta"}}"#, #"{"confi\u0067Set":{"kind":"delta"}}"#,
        ]
    )
    func embeddedSet(text: String) {
        Self.expectEmbeddedAgreement(Array(text.utf8), wrapped: false)
    }

    @Test("skip a whole set whose string holds a raw control character, read or skipped, instead of its value")
    func rawControlCharacters() throws {
        let good = try #require(try ConfigSet(jsonBytes: #"{"kind":"delta","configs":{"k":{"value":"on"}}}"#.utf8))
        #expect(good.configs["k"]?.value == "on")
        for byte in [0x00, 0x01, 0x0A, 0x1F] as [UInt8] {
            for template in [
                #"{"kind":"delta","configs":{"k":{"value":"a@b"}}}"#, #"{"configs":{"k":{"value":"v"},"j":{"x":"@"}}}"#,
                #"{"configs":{"k@":{"value":"v"}}}"#, #"{"extra":["@"],"configs":{"k":{"value":"v"}}}"#,
            ] {
                let document = Array(template.utf8).map { $0 == UInt8(ascii: "@") ? byte : $0 }
                // Not a config with no value: a good value would become the default.
                #expect(throws: JSONParsingError.self) { try ConfigSet(jsonBytes: document) }
            }
        }
    }

    // MARK: - Helpers

    /// What PROTOCOL §3 reads from a document: a set, an object that is not a set, or neither.
    private enum Reference: Equatable {
        case set(ConfigSet)
        /// A JSON object without a `configs` object: `nil`, never a full set without configs.
        case notASet
        /// Not JSON, not an object, or `configs` of another type: the decoder throws.
        case invalid

        var set: ConfigSet? {
            if case .set(let set) = self { return set }
            return nil
        }
    }

    /// What PROTOCOL §3 reads from the parsed document `bytes`, the reference of these tests.
    private static func reference(_ bytes: [UInt8]) -> Reference {
        guard let document = parsed(bytes) else { return .invalid }
        return reference(document)
    }

    /// The value `bytes` parse as, a payload's leading byte order mark ignored; `nil` when they are not JSON.
    private static func parsed(_ bytes: [UInt8]) -> JSONValue? {
        let payload = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = String(validating: payload, as: UTF8.self) else { return nil }
        return try? JSONValue(parsing: text)
    }

    /// The set that PROTOCOL §3 reads from a parsed value: every field optional, a field of the wrong type
    /// missing, an unknown kind full, an unknown type custom, an entry that is not an object skipped.
    private static func reference(_ document: JSONValue) -> Reference {
        func string(_ value: JSONValue?) -> String? {
            if case .string(let text)? = value { return text }
            return nil
        }
        guard case .dictionary(let fields) = document else { return .invalid }
        var configs: [ExactKey: ConfigState] = [:]
        switch fields["configs"] {
        case nil, .null?:
            return .notASet
        case .dictionary(let entries)?:
            for (key, entry) in entries {
                guard case .dictionary(let entry) = entry else { continue }
                configs[ExactKey(key)] = ConfigState(
                    id: string(entry["id"]),
                    key: string(entry["key"]),
                    type: string(entry["type"]).flatMap(ConfigType.init(rawValue:)) ?? .custom,
                    value: string(entry["value"]),
                    valueID: string(entry["valueId"])
                )
            }
        default:
            return .invalid
        }
        return .set(
            ConfigSet(
                environmentID: string(fields["environmentId"]),
                projectID: string(fields["projectId"]),
                kind: string(fields["kind"]).flatMap(ConfigSet.Kind.init(rawValue:)) ?? .full,
                timestamp: string(fields["timestamp"]),
                configs: configs
            ))
    }

    /// Checks that `ConfigSet.decodingDocument(jsonBytes:setMember:)` reads what the parsed document holds,
    /// with `bytes` as the member `configSet` of a larger document, or as the whole document when `wrapped`
    /// is false.
    private static func expectEmbeddedAgreement(
        _ bytes: [UInt8],
        wrapped: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let document =
            wrapped
            ? Array(#"{"formatVersion":1,"configSet":"#.utf8) + bytes + Array(#","after":{"x":[1]}}"#.utf8) : bytes
        var expected: (set: ConfigSet?, members: [String: JSONValue])?
        if case .dictionary(var members)? = parsed(document) {
            if case .dictionary? = members["configSet"] {
                // A set member that is an object is read as a set: it fails the document when invalid, and
                // is no set (and no member) when it has no configs object.
                let read = reference(members["configSet"]!)
                members["configSet"] = nil
                expected = read == .invalid ? nil : (read.set, members)
            } else {
                // Any other value is a member.
                expected = (nil, members)
            }
        }
        let actual = try? ConfigSet.decodingDocument(jsonBytes: document, setMember: "configSet")
        let description = String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription
        #expect(actual?.set == expected?.set, "embedded \(description)", sourceLocation: sourceLocation)
        #expect(actual?.members == expected?.members, "embedded \(description)", sourceLocation: sourceLocation)
    }

    /// Checks that `ConfigSet(jsonBytes:)` fails where the reference does, or gives its set; returns
    /// whether they decoded.
    @discardableResult
    private static func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation)
        -> Bool
    {
        let expected = reference(bytes)
        let actual: Reference
        do {
            actual = try ConfigSet(jsonBytes: bytes).map(Reference.set) ?? .notASet
        } catch {
            actual = .invalid
        }
        #expect(
            actual == expected,
            "\(String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription)",
            sourceLocation: sourceLocation
        )
        return expected.set != nil
    }

    /// A random config set document: fields present or not, of the right type or not, repeated,
    /// escaped, with unknown nested values, odd numbers and optional trailing commas (which fail).
    private static func randomDocument(using generator: inout SplitMix64) -> String {
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &generator)! }
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
        func space() -> String { chance(80) ? "" : pick([" ", "\n", "\t ", "\r\n"]) }
        func string() -> String {
            pick([
                "\"\"", "\"a\"", "\"key-\(Int.random(in: 0..<20, using: &generator))\"", #""\u00e9t\u00e9""#,
                #""\ud83d\ude00""#, #""a\"b\\c\/""#, #""\ud800""#, #""\x""#, "\"caf\u{E9}\"", "\"boolean\"",
                "\"integer\"", "\"delta\"", "\"full\"", "\"json\"", #""{\"limit\":3}""#, "\"line\\nfeed\"",
            ])
        }
        func scalar() -> String {
            chance(50)
                ? string()
                : pick(
                    ["true", "false", "null", "0", "-0", "7", "-12", "1.5", "2e3", "1.0", "-0.25", "3.0e-2"]
                        + ["\(Int.random(in: Int.min...Int.max, using: &generator))"]
                        + ["\(Double.random(in: -1e6...1e6, using: &generator))"]
                )
        }
        func value(_ depth: Int) -> String {
            guard depth < 3, chance(25) else { return scalar() }
            let count = Int.random(in: 0...3, using: &generator)
            if chance(50) {
                let items = (0..<count).map { _ in value(depth + 1) }
                return "[" + items.joined(separator: ",") + (count > 0 && chance(10) ? "," : "") + "]"
            }
            let members = (0..<count).map { _ in "\(string()):\(value(depth + 1))" }
            return "{" + members.joined(separator: ",") + (count > 0 && chance(10) ? "," : "") + "}"
        }
        func object(_ fields: [String], valueOf: (String) -> String) -> String {
            var members: [String] = []
            for field in fields where chance(70) {
                members.append("\(space())\"\(field)\"\(space()):\(space())\(valueOf(field))\(space())")
                if chance(5) { members.append("\"\(field)\":\(valueOf(field))") }
            }
            if chance(15) { members.append("\"extra\":\(value(0))") }
            members.shuffle(using: &generator)
            return "{" + members.joined(separator: ",") + (!members.isEmpty && chance(5) ? "," : "") + "}"
        }
        func entry() -> String {
            if chance(5) { return value(1) }
            return object(["id", "key", "type", "value", "valueId"]) { field in
                switch field {
                case "type": chance(80) ? "\"\(ConfigType.allCases.randomElement(using: &generator)!)\"" : scalar()
                case "value": chance(90) ? scalar() : value(1)
                default: chance(90) ? string() : scalar()
                }
            }
        }
        return object(["environmentId", "projectId", "kind", "timestamp", "configs"]) { field in
            switch field {
            case "kind": chance(80) ? pick(["\"full\"", "\"delta\""]) : scalar()
            case "configs":
                chance(95)
                    ? "{"
                        + (0..<Int.random(in: 0...8, using: &generator)).map { index in
                            "\(chance(10) ? string() : "\"c\(index)\""):\(entry())"
                        }.joined(separator: ",") + "}"
                    : value(0)
            default: chance(90) ? string() : scalar()
            }
        }
    }
}
