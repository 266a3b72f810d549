@_spi(Internal) import ConfigModel
import Testing

@testable import ConfigOpenFeature

@Suite("Evaluation context mapping")
struct EvaluationContextMappingTests {
    @Test("maps the targeting key, kind, name, traits and anonymous; ignores the rest")
    func mapsEveryField() {
        let context = EvaluationContextMapping.context(
            targetingKey: "acme",
            attributes: [
                "kind": "tenant", "name": "Acme Inc.", "traits": ["plan": "enterprise", "kind": "ignored-here"],
                "anonymous": true, "other": 1,
            ]
        )
        #expect(
            context
                == ConfigDirectorContext(
                    id: "acme", kind: "tenant", name: "Acme Inc.",
                    traits: ["plan": "enterprise", "kind": "ignored-here"], isAnonymous: true
                )
        )
    }

    @Test("falls back to an id attribute when the targeting key is missing or empty")
    func idFallback() {
        #expect(EvaluationContextMapping.context(targetingKey: "", attributes: ["id": "u-1"]).id == "u-1")
        #expect(EvaluationContextMapping.context(targetingKey: nil, attributes: [:]).id == nil)
    }
}
