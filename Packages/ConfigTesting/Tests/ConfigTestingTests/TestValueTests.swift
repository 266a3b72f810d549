import ConfigClient
import ConfigModel
import ConfigTesting
import Testing

@Suite("Test values")
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
            #expect(value.type == type)
            #expect(value.text == text)
        }
    }

    @Test("a literal wraps the served value of the same literal")
    func wrapsServedValue() {
        let pairs: [(TestValue, ServedValue)] = [
            (true, true), (20, 20), (2.5, 2.5), ("Ada", "Ada"), (["x", "y"], ["x", "y"]),
            (["theme": "dark", "limit": 3], ["theme": "dark", "limit": 3]),
        ]
        for (testValue, servedValue) in pairs {
            #expect(testValue.servedValue == servedValue)
        }
        #expect(TestValue(.integer(7)) == 7)
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
            makeTestClient().setValue(TestValue(.float(.infinity)), for: "k")
        }
        await #expect(processExitsWith: .failure) {
            makeTestClient().replaceValues(["k": ["ratio": .double(.nan)]])
        }
    }
}
