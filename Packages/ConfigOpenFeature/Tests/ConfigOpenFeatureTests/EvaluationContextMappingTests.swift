@_spi(Internal) import ConfigModel
import Foundation
import Testing

@testable import ConfigOpenFeature

/// The platform-neutral rules of the provider, tested with the OpenFeature trait off as well.
@Suite("Evaluation context mapping", .timeLimit(.minutes(1)))
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

    @Test("falls back to an id attribute, a string or an integer, when the targeting key is missing or empty")
    func idFallback() {
        #expect(EvaluationContextMapping.context(targetingKey: "", attributes: ["id": "u-1"]).id == "u-1")
        #expect(EvaluationContextMapping.context(targetingKey: nil, attributes: ["id": 42]).id == "42")
        #expect(EvaluationContextMapping.context(targetingKey: nil, attributes: ["id": -7]).id == "-7")
        #expect(EvaluationContextMapping.context(targetingKey: nil, attributes: ["id": 4.5]).id == nil)
        #expect(EvaluationContextMapping.context(targetingKey: nil, attributes: [:]).id == nil)
    }

    @Test("leaves out empty traits and fields of another type")
    func wrongTypes() {
        let context = EvaluationContextMapping.context(
            targetingKey: "u", attributes: ["traits": [:], "name": 1, "anonymous": "yes", "kind": 3]
        )
        #expect(context == ConfigDirectorContext(id: "u"))
    }

    @Test("a date is UTC ISO-8601 text with milliseconds")
    func dates() {
        #expect(
            EvaluationContextMapping.traitText(of: Date(timeIntervalSince1970: 1_767_323_045.678))
                == "2026-01-02T03:04:05.678Z")
        #expect(EvaluationContextMapping.traitText(of: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(
            EvaluationContextMapping.traitText(of: Date(timeIntervalSince1970: 59.9996)) == "1970-01-01T00:01:00.000Z")
        #expect(
            EvaluationContextMapping.traitText(of: Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
        #expect(EvaluationContextMapping.traitText(of: Date(timeIntervalSince1970: 1.05)) == "1970-01-01T00:00:01.050Z")
    }

    @Test("OpenFeature integers read exact 64-bit text first, else a number truncated toward zero")
    func integers() {
        #expect(OpenFeatureInteger(configValue: "9007199254740993")?.value == 9_007_199_254_740_993)
        #expect(OpenFeatureInteger(configValue: "-9223372036854775808")?.value == .min)
        #expect(OpenFeatureInteger(configValue: "0.15")?.value == 0)
        #expect(OpenFeatureInteger(configValue: "-2.9")?.value == -2)
        #expect(OpenFeatureInteger(configValue: "1e30") == nil)
        #expect(OpenFeatureInteger(configValue: "twelve") == nil)
        #expect(OpenFeatureInteger(12).configValueText == "12")
        #expect(OpenFeatureInteger.configValueKind == .number)
    }
}
