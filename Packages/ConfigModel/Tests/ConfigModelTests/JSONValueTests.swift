@_spi(Internal) import ConfigModel
import Foundation
import Testing

@Suite("JSON values", .timeLimit(.minutes(1)))
struct JSONValueTests {
    @Test("are written as Swift literals of every kind")
    func literals() {
        let value: JSONValue = ["s": "text", "i": 12, "d": 2.5, "b": true, "n": nil, "a": [1, "x"], "o": ["k": false]]
        let expected = JSONValue.dictionary([
            "s": .string("text"), "i": .int(12), "d": .double(2.5), "b": .bool(true), "n": .null,
            "a": .array([.int(1), .string("x")]), "o": .dictionary(["k": .bool(false)]),
        ])
        #expect(value == expected)
    }

    @Test("keep the last value of a repeated key in a dictionary literal")
    func repeatedLiteralKey() {
        let value: JSONValue = ["a": 1, "a": 2]
        #expect(value == ["a": 2])
    }

    @Test("decode every kind of value exactly through JSONDecoder")
    func decodes() throws {
        let text = #"{"i":2,"d":2.5,"s":"x","b":true,"n":null,"a":[1,false,"y"],"o":{"k":-3},"big":1e300}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(
            value == [
                "i": 2, "d": 2.5, "s": "x", "b": true, "n": nil, "a": [1, false, "y"], "o": ["k": -3],
                "big": 1e300,
            ])
    }

    @Test("do not read a number as a boolean or a boolean as a number")
    func booleansStayBooleans() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data("[0,1,true,false]".utf8))
        #expect(value == [0, 1, true, false])
    }

    @Test("encode through JSONEncoder and decode back to the same value")
    func codableRoundTrip() throws {
        let value: JSONValue = ["s": "é\"", "i": -7, "d": 0.25, "b": false, "n": nil, "a": [[], [:], [1]]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        #expect(try JSONValue(parsing: String(decoding: data, as: UTF8.self)) == value)
    }

    @Test("encode a non-finite double as null")
    func encodesNonFiniteAsNull() throws {
        let value: JSONValue = ["inf": .double(.infinity), "nan": .double(.nan), "list": [.double(-.infinity)]]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"inf":null,"list":[null],"nan":null}"#)
    }

    @Test("say whether every number in them is finite")
    func finiteness() {
        #expect(JSONValue(["a": [1, 2.5, "x", nil]]).isFinite)
        #expect(!JSONValue.double(.nan).isFinite)
        #expect(!JSONValue(["a": ["b": [.double(.infinity)]]]).isFinite)
        #expect(!JSONValue.array([1, .double(-.infinity)]).isFinite)
    }
}

extension JSONValue {
    fileprivate init(_ value: JSONValue) { self = value }
}
