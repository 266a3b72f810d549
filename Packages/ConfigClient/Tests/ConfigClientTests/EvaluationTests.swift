@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Evaluating configs", .timeLimit(.minutes(1)))
struct EvaluationTests {
    struct Theme: Decodable, Equatable {
        let primary: String
        let cornerRadius: Double
    }

    @Test("before the first state, every read returns its default with clientNotReady")
    func beforeReady() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        var evaluations = fixture.client.evaluations.makeAsyncIterator()

        #expect(fixture.client.value(for: "dark-mode", default: false) == false)
        let evaluation = try #require(await evaluations.next())
        #expect(evaluation.key == "dark-mode")
        #expect(evaluation.reason == .clientNotReady)
        #expect(evaluation.isDefaultValue)
        #expect(evaluation.valueID == nil)
        #expect(evaluation.value.as(Bool.self) == false)
    }

    @Test("after the first state, reads follow the rules of the protocol")
    func afterReady() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client

        #expect(client.value(for: "dark-mode", default: false) == true)
        #expect(client.value(for: "max-items", default: 0) == 20)
        #expect(client.value(for: "ratio", default: 0.0) == 2.5)
        #expect(client.value(for: "ratio", default: 0) == 2)
        #expect(client.value(for: "greeting", default: "none") == "hello")
        #expect(client.value(for: "dark-mode", default: "none") == "none")
        #expect(client.value(for: "missing", default: 7) == 7)
        #expect(client.value(for: "empty", default: "fallback") == "fallback")
        let theme = client.value(for: "theme", as: Theme.self, default: Theme(primary: "", cornerRadius: 0))
        #expect(theme == Theme(primary: "#101010", cornerRadius: 8))
    }

    @Test("every evaluation publishes why it returned what it did")
    func reasons() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "user-1"))
        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        let client = fixture.client

        _ = client.value(for: "dark-mode", default: false)
        _ = client.value(for: "dark-mode", default: "text")
        _ = client.value(for: "missing", default: false)
        _ = client.value(for: "empty", default: "")
        _ = client.value(for: "greeting", default: 1)
        _ = client.value(for: "greeting", as: [String].self, default: [])

        var seen: [ConfigEvaluation] = []
        for _ in 0..<6 { seen.append(try #require(await evaluations.next())) }
        #expect(
            seen.map(\.reason) == [
                .foundMatch, .typeMismatch, .configStateMissing, .valueMissing, .invalidNumber, .typeMismatch,
            ])
        #expect(seen[0].valueID == "on")
        #expect(seen[0].context?.id == "user-1")
        #expect(!seen[0].isDefaultValue)
        #expect(seen[1].valueID == nil)
    }

    @Test("a value id is computed when the server sent none")
    func computedValueID() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var evaluations = fixture.client.evaluations.makeAsyncIterator()

        _ = fixture.client.value(for: "greeting", default: "")
        #expect(try #require(await evaluations.next()).valueID == ValueID(of: "hello").rawValue)
    }

    @Test("keys that come and go one delta at a time read their latest values; removed keys read their defaults")
    func keysComeAndGo() async throws {
        let fixture = try ClientFixture(initial: .strings(["seed": "0"], kind: .full))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let server = try fixture.server
        for index in 0..<40 { server.serve(.strings(["key-\(index)": "\(index)"])) }
        for index in stride(from: 0, to: 40, by: 3) { server.serve(.strings(["key-\(index)": "changed"])) }
        var kept = ["seed": "0"]
        for index in 0..<40 where index % 2 == 1 { kept["key-\(index)"] = index % 3 == 0 ? "changed" : "\(index)" }
        server.serve(.strings(kept, kind: .full))
        for index in 40..<50 { server.serve(.strings(["key-\(index)": "new \(index)"])) }

        for index in 0..<50 {
            let expected = index >= 40 ? "new \(index)" : kept["key-\(index)"] ?? "default"
            #expect(fixture.client.value(for: "key-\(index)", default: "default") == expected, "key-\(index)")
        }
        #expect(fixture.client.value(for: "seed", default: "") == "0")
    }
}
