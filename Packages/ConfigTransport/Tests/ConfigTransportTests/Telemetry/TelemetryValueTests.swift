@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import Foundation
import Testing

@Suite("Telemetry values", .timeLimit(.minutes(1)))
struct TelemetryValueTests {
    private func json(_ value: TelemetryValue) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    @Test("sends short text as value, and JSON or text over 500 UTF-16 units by value id")
    func forms() {
        #expect(TelemetryValue(text: "true", configType: .boolean, valueID: "on") == .text("true"))
        #expect(TelemetryValue(text: "{\"a\":1}", configType: .json, valueID: "v1") == .valueID("v1"))
        #expect(
            TelemetryValue(text: "{\"primaryColor\":\"blue\",\"cornerRadius\":8}", configType: .json, valueID: nil)
                == .valueID("0aJfn8fEPvzqgW7hj44nv0")
        )
        let long = String(repeating: "a", count: 600)
        #expect(TelemetryValue(text: long, configType: .string, valueID: nil) == .valueID("5fN8d72HXaUK6VkcOwuKTN"))
        let limit = String(repeating: "b", count: 500)
        #expect(TelemetryValue(text: limit, configType: .string, valueID: nil) == .text(limit))
        let emoji = String(repeating: "🎉", count: 251)
        #expect(TelemetryValue(text: emoji, configType: nil, valueID: nil) == .valueID(ValueID(of: emoji).rawValue))
    }

    @Test("sends an empty or missing value as {} or by its id")
    func empty() {
        #expect(TelemetryValue(text: "", configType: .string, valueID: nil) == .empty)
        #expect(TelemetryValue(text: nil, configType: nil, valueID: nil) == .empty)
        #expect(TelemetryValue(text: "", configType: .string, valueID: "e") == .valueID("e"))
    }

    @Test("encodes each form as the wire wants it")
    func encoding() throws {
        #expect(try json(.text("x")) == "{\"value\":\"x\"}")
        #expect(try json(.valueID("id")) == "{\"valueId\":\"id\"}")
        #expect(try json(.empty) == "{}")
    }
}
