@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigTesting
import Testing

@Suite("Test values", .timeLimit(.minutes(1)))
struct TestValueTests {
    @Test("the config type follows the literal; a JSON object is encoded with sorted keys")
    func typeFollowsLiteral() {
        let values: [(TestValue, ConfigType, String)] = [
            (true, .boolean, "true"),
            (20, .integer, "20"),
            (2.5, .float, "2.5"),
            ("Ada", .string, "Ada"),
            (["theme": "dark", "limit": 3], .json, #"{"limit":3,"theme":"dark"}"#),
            (["x", "y"], .json, #"["x","y"]"#),
        ]
        for (value, type, text) in values {
            #expect(value.configType == type)
            #expect(value.text == text)
        }
    }

    @Test("a test value is an enum of six cases, built from literals that nest as test values")
    func casesAndLiterals() {
        let someTestValue: TestValue = .float(2.5)
        let v = 21
        let pairs: [(TestValue, TestValue)] = [
            (true, .boolean(true)), (20, .integer(20)), (2.5, .float(2.5)), ("Ada", .string("Ada")),
            (["x", 1], .array([.string("x"), .integer(1)])),
            (["a": someTestValue], .object(["a": .float(2.5)])),
            (["a": ["b": [true]]], .object(["a": .object(["b": .array([.boolean(true)])])])),
            (.integer(v * 2), 42),
        ]
        for (literal, value) in pairs {
            #expect(literal == value)
        }
        let duplicate: TestValue = ["k": 1, "k": 2]
        #expect(duplicate == .object(["k": 2]))
    }

    @Test("a float is served as plain decimal text, never in exponent form")
    func floatsArePlainDecimals() {
        let cases: [(Double, String)] = [
            (2.5, "2.5"), (2.0, "2.0"), (1e21, "1000000000000000000000"), (-2.5e20, "-250000000000000000000"),
            (1e-7, "0.0000001"), (1.5e-5, "0.000015"), (-0.5, "-0.5"), (123456.789, "123456.789"),
            (1.25e16, "12500000000000000"),
        ]
        for (value, text) in cases {
            #expect(TestValue.float(value).text == text, "\(value)")
        }
    }

    @Test("setValue takes a computed case and the client reads it as served")
    func computedCase() async {
        let testClient = makeTestClient(values: ["b": 1, "f": .float(1e21)])
        defer { testClient.client.close() }
        await testClient.client.initialize()
        let v = 4
        testClient.setValue(.integer(v * 2), for: "b")
        #expect(testClient.client.value(for: "b", default: 0) == 8)
        #expect(testClient.client.value(for: "f", default: 0.0) == 1e21)
    }

    @Test("a string is always a string config, even when it holds JSON text")
    func stringStaysString() async {
        let testClient = makeTestClient(values: ["k": #"{"a":1}"#])
        defer { testClient.client.close() }
        await testClient.client.initialize()

        #expect(testClient.client.value(for: "k", default: "none") == #"{"a":1}"#)
        #expect(testClient.client.value(for: "k", as: [String: Int].self, default: [:]) == [:])
    }

    @Test("a blank key stops the test with a precondition failure")
    func blankKey() async {
        await #expect(processExitsWith: .failure) {
            _ = makeTestClient(values: [" ": true])
        }
        await #expect(processExitsWith: .failure) {
            makeTestClient().setValue(true, for: "")
        }
    }

    @Test("a number that is not finite stops the test with a precondition failure")
    func nonFiniteNumber() async {
        await #expect(processExitsWith: .failure) {
            makeTestClient().setValue(.float(.infinity), for: "k")
        }
        await #expect(processExitsWith: .failure) {
            makeTestClient().replaceValues(["k": ["ratio": .float(.nan)]])
        }
    }
}
