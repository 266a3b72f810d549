import ConfigModel
import Testing

@Suite("Evaluation reasons", .timeLimit(.minutes(1)))
struct EvaluationReasonTests {
    @Test(
        "have the kebab-case names telemetry reports as raw values",
        arguments: [
            (EvaluationReason.foundMatch, "found-match"),
            (.configStateMissing, "config-state-missing"),
            (.clientNotReady, "client-not-ready"),
            (.valueMissing, "value-missing"),
            (.invalidNumber, "invalid-number"),
            (.invalidBoolean, "invalid-boolean"),
            (.invalidJSON, "invalid-json"),
            (.typeMismatch, "type-mismatch"),
        ])
    func names(reason: EvaluationReason, rawValue: String) {
        #expect(reason.rawValue == rawValue)
        #expect(EvaluationReason(rawValue: rawValue) == reason)
    }

    @Test("are exactly the eight of the protocol")
    func allCases() {
        #expect(EvaluationReason.allCases.count == 8)
        #expect(Set(EvaluationReason.allCases.map(\.rawValue)).count == 8)
    }
}
