import ConfigModel
import ConfigTesting
import Testing

@Suite("Test values")
struct TestValueTests {
    @Test("the config type follows the literal")
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
}
