import ConfigModel
import Testing

@Suite("Evaluation reasons")
struct EvaluationReasonTests {
    @Test(
        "print their case names and report kebab-case names to telemetry",
        arguments: [
            (EvaluationReason.foundMatch, "foundMatch", "found-match"),
            (.configStateMissing, "configStateMissing", "config-state-missing"),
            (.clientNotReady, "clientNotReady", "client-not-ready"),
            (.valueMissing, "valueMissing", "value-missing"),
            (.invalidNumber, "invalidNumber", "invalid-number"),
            (.invalidBoolean, "invalidBoolean", "invalid-boolean"),
            (.invalidJSON, "invalidJSON", "invalid-json"),
            (.typeMismatch, "typeMismatch", "type-mismatch"),
        ])
    func names(reason: EvaluationReason, rawValue: String, telemetryName: String) {
        #expect(reason.rawValue == rawValue)
        #expect(EvaluationReason(rawValue: rawValue) == reason)
        #expect(reason.telemetryName == telemetryName)
    }

    @Test("are exactly the eight of the protocol")
    func allCases() {
        #expect(EvaluationReason.allCases.count == 8)
        #expect(Set(EvaluationReason.allCases.map(\.telemetryName)).count == 8)
    }

    @Test("use the default value for every reason but foundMatch")
    func usesDefaultValue() {
        for reason in EvaluationReason.allCases {
            #expect(reason.usesDefaultValue == (reason != .foundMatch), "\(reason)")
        }
    }
}
