@_spi(Internal) import ConfigModel
import Foundation
import Testing

@Suite("Evaluations", .timeLimit(.minutes(1)))
struct ConfigEvaluationTests {
    /// A payload that is neither Equatable nor a standard type.
    struct Opaque: Sendable, CustomStringConvertible {
        var name: String
        var description: String { "Opaque(\(name))" }
    }

    @Test("read their value back as the type it was evaluated as, and nil as any other")
    func readsValueBack() {
        let value = ConfigEvaluationValue(true)
        #expect(value.as(Bool.self) == true)
        #expect(value.as(String.self) == nil)
        #expect(value.as(Int.self) == nil)
        #expect(ConfigEvaluationValue(42).as(Int.self) == 42)
        #expect(ConfigEvaluationValue(42).as(Int64.self) == nil)
        #expect(ConfigEvaluationValue(42).as(Double.self) == nil)
        #expect(ConfigEvaluationValue(Int64(42)).as(Int64.self) == 42)
        #expect(ConfigEvaluationValue(Opaque(name: "x")).as(Opaque.self)?.name == "x")
        #expect(ConfigEvaluationValue(["a": 1] as JSONValue).as(JSONValue.self) == ["a": 1])
    }

    @Test("describe their value in a form fit for logs")
    func describes() throws {
        #expect(ConfigEvaluationValue(true).description == "true")
        #expect(ConfigEvaluationValue("dark").description == "dark")
        #expect(ConfigEvaluationValue(2.5).description == "2.5")
        #expect(ConfigEvaluationValue(-3).description == "-3")
        #expect(
            ConfigEvaluationValue(try #require(URL(string: "https://example.com"))).description == "https://example.com"
        )
        #expect(ConfigEvaluationValue(Opaque(name: "x")).description == "Opaque(x)")
    }

    @Test("compare values by type and value")
    func valueEquality() {
        #expect(ConfigEvaluationValue(true) == ConfigEvaluationValue(true))
        #expect(ConfigEvaluationValue(true) != ConfigEvaluationValue(false))
        #expect(ConfigEvaluationValue("1") != ConfigEvaluationValue(1))
        #expect(ConfigEvaluationValue(1) != ConfigEvaluationValue(1.0))
        #expect(ConfigEvaluationValue(1) != ConfigEvaluationValue(Int64(1)))
        // -0.0 and 0.0 are equal as doubles even though their descriptions differ.
        #expect(ConfigEvaluationValue(-0.0) == ConfigEvaluationValue(0.0))
        // NaN is not equal to itself as a double.
        #expect(ConfigEvaluationValue(Double.nan) != ConfigEvaluationValue(Double.nan))
    }

    @Test("compare payloads that are not Equatable by their description")
    func nonEquatablePayloads() {
        #expect(ConfigEvaluationValue(Opaque(name: "a")) == ConfigEvaluationValue(Opaque(name: "a")))
        #expect(ConfigEvaluationValue(Opaque(name: "a")) != ConfigEvaluationValue(Opaque(name: "b")))
        #expect(ConfigEvaluationValue(Opaque(name: "a")) != ConfigEvaluationValue("Opaque(a)"))
    }

    @Test("are equal exactly when every field is equal")
    func evaluationEquality() {
        let evaluation = ConfigEvaluation(
            key: "dark-mode",
            value: ConfigEvaluationValue(true),
            valueID: "on",
            isDefaultValue: false,
            context: ConfigDirectorContext(id: "user-123"),
            reason: .foundMatch
        )
        #expect(evaluation == evaluation)
        #expect(evaluation.source == .live)
        var variants = [ConfigEvaluation](repeating: evaluation, count: 7)
        variants[0].key = "other"
        variants[1].value = ConfigEvaluationValue(false)
        variants[2].valueID = nil
        variants[3].isDefaultValue = true
        variants[4].context = nil
        variants[5].reason = .typeMismatch
        variants[6].source = .keptValues
        for variant in variants { #expect(variant != evaluation) }
        #expect(evaluation.key == "dark-mode")
        #expect(evaluation.value.as(Bool.self) == true)
        #expect(evaluation.valueID == "on")
        #expect(!evaluation.isDefaultValue)
        #expect(evaluation.context?.id == "user-123")
        #expect(evaluation.reason == .foundMatch)
    }

    @Test("a detail gives back the evaluation it was made of, its value the detail's, the default unless served")
    func detailRebuildsItsEvaluation() {
        let context = ConfigDirectorContext(id: "user-1", name: "Ada")
        let served = ConfigEvaluation(
            key: "dark-mode", value: ConfigEvaluationValue(true), valueID: "on", isDefaultValue: false,
            context: context, reason: .foundMatch, source: .keptValues)
        let detail = ConfigEvaluationDetail(value: true, evaluation: served)
        #expect(detail.value)
        #expect(detail.evaluation == served)
        #expect(
            detail
                == ConfigEvaluationDetail(
                    value: true, key: "dark-mode", valueID: "on", context: context, reason: .foundMatch,
                    source: .keptValues))
        #expect(detail != ConfigEvaluationDetail(value: false, evaluation: served))

        // The evaluation's value is the detail's, and a reason other than a match is a default.
        let missing = ConfigEvaluationDetail(
            value: 7, key: "missing", valueID: nil, context: nil, reason: .configStateMissing, source: .codeDefault)
        #expect(missing.evaluation.value.as(Int.self) == 7)
        #expect(missing.evaluation.isDefaultValue)
        #expect(missing.evaluation.source == .codeDefault)
        #expect(missing.evaluation.key == "missing")
        #expect(missing.evaluation.valueID == nil)
        #expect(missing.evaluation.context == nil)
        #expect(missing != ConfigEvaluationDetail(value: 7, evaluation: served))
    }
}
