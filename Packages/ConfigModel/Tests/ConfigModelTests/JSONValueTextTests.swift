@_spi(Internal) import ConfigModel
import Foundation
import Testing

@Suite("JSON text of a value", .timeLimit(.minutes(1)))
struct JSONValueTextTests {
    @Test("is compact with object keys sorted")
    func compactSortedKeys() {
        let value: JSONValue = ["zeta": 1, "alpha": [true, nil, 2.5], "mid": ["b": "x", "a": "y"]]
        #expect(value.jsonText == #"{"alpha":[true,null,2.5],"mid":{"a":"y","b":"x"},"zeta":1}"#)
    }

    @Test("writes integers without a fraction and doubles with one")
    func numbers() {
        #expect(JSONValue.int(2).jsonText == "2")
        #expect(JSONValue.double(2).jsonText == "2.0")
        #expect(JSONValue.double(-0.5).jsonText == "-0.5")
        #expect(JSONValue.int(Int.min).jsonText == "-9223372036854775808")
    }

    @Test("writes a non-finite double as null", arguments: [Double.infinity, -Double.infinity, Double.nan])
    func nonFinite(number: Double) {
        #expect(JSONValue.double(number).jsonText == "null")
        #expect(JSONValue.array([.double(number)]).jsonText == "[null]")
    }

    @Test("serves a string as itself, null as no value, and any other value as its JSON text")
    func wireText() {
        #expect(JSONValue.string("a \"quoted\" text").wireText == "a \"quoted\" text")
        #expect(JSONValue.null.wireText == nil)
        #expect(JSONValue.bool(true).wireText == "true")
        #expect(JSONValue.int(42).wireText == "42")
        #expect(JSONValue.double(2.5).wireText == "2.5")
        #expect(JSONValue.array([1, nil]).wireText == "[1,null]")
        #expect(JSONValue.dictionary(["b": "x", "a": 1]).wireText == #"{"a":1,"b":"x"}"#)
    }

    @Test("escapes quotes, backslashes and control characters")
    func escapes() {
        let value = JSONValue.string("\"\\\n\r\t\u{08}\u{0C}\u{01}\u{1F}/é😀")
        #expect(value.jsonText == #""\"\\\n\r\t\b\f\u0001\u001f/é😀""#)
    }

    @Test(
        "parses back to the same value",
        arguments: [
            JSONValue.null, true, false, 0, -1, .int(Int.max), .int(Int.min), 2.5, 1e300, -1e-300,
            .double(2), .double(-0.0), .double(.leastNonzeroMagnitude), .double(Double.greatestFiniteMagnitude), "",
            "plain",
            "\"\\\n\u{00}\u{7F}😀", [], [:], [1, "two", [3.0], ["four": nil]],
            ["a": ["b": ["c": [1, 2, 3]]], "": "empty key", "😀": "emoji key"],
        ])
    func roundTrip(value: JSONValue) throws {
        let parsed = try JSONValue(parsing: value.jsonText)
        #expect(parsed == value)
        #expect(parsed.jsonText == value.jsonText)
    }

    @Test("is the text that JSONSerialization reads as the same document")
    func agreesWithFoundation() throws {
        let value: JSONValue = ["b": [1, 2.5, "x", true, nil], "a": ["nested": "é\n"]]
        let object = try JSONSerialization.jsonObject(with: Data(value.jsonText.utf8)) as? NSDictionary
        let expected: NSDictionary = [
            "b": [1, 2.5, "x", true, NSNull()] as NSArray, "a": ["nested": "é\n"] as NSDictionary,
        ]
        #expect(object == expected)
    }
}
