import Testing

@_spi(Internal) @testable import ConfigModel

@Suite("Parsing JSON text", .timeLimit(.minutes(1)))
struct JSONValueParsingTests {
    @Test(
        "keeps integers exact and reads every other number as a double",
        arguments: [
            ("2", JSONValue.int(2)),
            ("-17", .int(-17)),
            ("0", .int(0)),
            ("-0", .int(0)),
            ("9223372036854775807", .int(Int.max)),
            ("-9223372036854775808", .int(Int.min)),
            ("9223372036854775808", .double(9_223_372_036_854_775_808)),
            ("2.5", .double(2.5)),
            ("2.0", .double(2)),
            ("2e0", .double(2)),
            ("1E+2", .double(100)),
            ("-1.5e-3", .double(-0.0015)),
            ("0.1", .double(0.1)),
        ])
    func numbers(text: String, expected: JSONValue) throws {
        let value = try JSONValue(parsing: text)
        #expect(value == expected)
    }

    @Test("tells a double that equals an integer from the integer")
    func doubleIsNotInteger() throws {
        #expect(try JSONValue(parsing: "2.0") != .int(2))
        #expect(try JSONValue(parsing: "[1, 1.0]") == .array([.int(1), .double(1)]))
    }

    @Test("reads literals, strings, arrays and objects with any whitespace between tokens")
    func structures() throws {
        let text = " \t\r\n{ \"a\" : [ true , false , null ] ,\n\"b\":{},\"c\":[],\"d\":\"x\" } \n"
        let value = try JSONValue(parsing: text)
        #expect(value == ["a": [true, false, nil], "b": [:], "c": [], "d": "x"])
    }

    @Test("keeps the last value of a repeated key")
    func repeatedKey() throws {
        #expect(try JSONValue(parsing: #"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test("decodes every escape")
    func escapes() throws {
        let value = try JSONValue(parsing: #""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC""#)
        #expect(value == .string("\"\\/\u{08}\u{0C}\n\r\tAé€"))
    }

    @Test("joins a surrogate pair into one scalar")
    func surrogatePair() throws {
        let value = try JSONValue(parsing: #""\uD83D\uDE00 and \ud834\udd1e""#)
        #expect(value == .string("😀 and 𝄞"))
    }

    @Test("keeps characters outside ASCII written as they are")
    func rawUnicode() throws {
        #expect(try JSONValue(parsing: #"["日本語", "é", "😀"]"#) == ["日本語", "é", "😀"])
    }

    @Test(
        "refuses text that is not exactly one JSON value",
        arguments: [
            "", "   ", "tru", "truex", "nul", "True", "NaN", "Infinity", "-Infinity", "+1", "01", "-", "1.", ".5",
            "1e", "1e+", "0x10", "1 2", "[1,]", "[,1]", "[1 2]", "{\"a\":1,}", "{\"a\"}", "{\"a\" 1}", "{a:1}",
            "{1:1}", "[", "]", "{", "}", "[1", "{\"a\":1", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"",
            "\"\t\"", "\"\n\"", "\u{FEFF}1", "1 x", "[1]]", "{}{}", "nulll", "'a'", "[1e400]", "-1e400",
        ])
    func refusesMalformedText(text: String) {
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: text) }
    }

    @Test(
        "refuses an unpaired surrogate escape",
        arguments: [
            #""\uD83D""#, #""\uD83Dx""#, #""\uD83D\u0041""#, #""\uDE00""#, #""\uDE00\uD83D""#, #""\uD83D\n""#,
        ])
    func refusesUnpairedSurrogates(text: String) {
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: text) }
    }

    @Test("says where the text went wrong")
    func errorOffset() throws {
        let error = try #require(throws: JSONParsingError.self) { try JSONValue(parsing: "[1, 2 x]") }
        #expect(error.offset == 6)
        #expect(error.description.hasPrefix("Invalid JSON at byte 6: "))
        #expect(error.reason.contains("']'"))
    }

    @Test("accepts nesting up to the maximum depth and refuses one level more")
    func depthLimit() throws {
        let depth = JSONValue.maximumParsingDepth
        #expect(depth == 512)
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONValue(parsing: deepest)
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = elements.first ?? .null
        }
        #expect(levels == depth)

        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: tooDeep) }
        let objects = String(repeating: #"{"a":"#, count: depth + 1) + "1" + String(repeating: "}", count: depth + 1)
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: objects) }
    }

    @Test("refuses hostile nesting quickly without overflowing the stack")
    func hostileNesting() {
        let brackets = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: brackets) }
        let members = String(repeating: #"{"k":["#, count: 200_000)
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: members) }
    }

    @Test("parses a long flat array in one pass")
    func longArray() throws {
        let count = 50_000
        let text = "[" + (0..<count).map(String.init).joined(separator: ",") + "]"
        let value = try JSONValue(parsing: text)
        guard case .array(let elements) = value else {
            Issue.record("expected an array, got \(value)")
            return
        }
        #expect(elements.count == count)
        #expect(elements.last == .int(count - 1))
    }
}
