import ConfigDirector
import ConfigDirectorOpenFeatureProvider
import ConfigDirectorTesting
import Foundation
import Testing

@Suite("Documented imports", .timeLimit(.minutes(1)))
struct DocumentedImportsTests {
    @Test("import ConfigDirector reaches the model, store and client types")
    func umbrella() throws {
        let context = ConfigDirectorContext(id: "user-123", name: "Ada", traits: ["plan": "pro"])
        #expect(context.traits?["plan"] == .string("pro"))
        #expect(InMemoryCachingProvider().read() == nil)
        #expect(ConfigDirectorMetaContext(appName: "App").appName == "App")
    }

    @Test("import ConfigDirectorTesting reaches the test values")
    func testing() {
        let value: TestValue = ["x", "y"]
        #expect(value == .array([.string("x"), .string("y")]))
    }
}
