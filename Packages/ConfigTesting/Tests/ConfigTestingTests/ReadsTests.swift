@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigTesting
import Testing

@Suite("Reads from a test client behave as in production", .timeLimit(.minutes(1)))
struct ReadsTests {
    @Test("a boolean read as a String returns the default and publishes a typeMismatch evaluation")
    func booleanAsString() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient()
            defer { testClient.client.close() }
            await testClient.client.initialize()
            testClient.setValue(true, for: "k")
            var evaluations = testClient.client.evaluations.makeAsyncIterator()

            #expect(testClient.client.value(for: "k", default: "fallback") == "fallback")

            let evaluation = try #require(await evaluations.next())
            #expect(evaluation.key == "k")
            #expect(evaluation.reason == .typeMismatch)
            #expect(evaluation.isDefaultValue)
            #expect(evaluation.value.as(String.self) == "fallback")
        }
    }

    @Test("a float read as an Int returns its integer part")
    func floatAsInt() async {
        let testClient = makeTestClient()
        defer { testClient.client.close() }
        await testClient.client.initialize()
        testClient.setValue(2.5, for: "k")

        #expect(testClient.client.value(for: "k", default: 0) == 2)
        #expect(testClient.client.value(for: "k", default: 0.0) == 2.5)
    }

    @Test("an empty string serves the default with the valueMissing reason")
    func emptyString() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient()
            defer { testClient.client.close() }
            await testClient.client.initialize()
            testClient.setValue("", for: "k")
            var evaluations = testClient.client.evaluations.makeAsyncIterator()

            #expect(testClient.client.value(for: "k", default: "fallback") == "fallback")

            let evaluation = try #require(await evaluations.next())
            #expect(evaluation.reason == .valueMissing)
            #expect(evaluation.valueID == nil)
        }
    }

    @Test("a served value carries the value id of PROTOCOL §7")
    func valueID() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello"])
            defer { testClient.client.close() }
            await testClient.client.initialize()
            var evaluations = testClient.client.evaluations.makeAsyncIterator()

            #expect(testClient.client.value(for: "greeting", default: "none") == "hello")

            let evaluation = try #require(await evaluations.next())
            #expect(evaluation.reason == .foundMatch)
            #expect(evaluation.valueID == "1MoOW7eqAPjhZeoELVwO9G")
        }
    }

    struct Appearance: Decodable, Equatable {
        let theme: String
        let limit: Int
    }

    @Test("a JSON object decodes into a Decodable type, and a JSON array too")
    func json() async {
        let testClient = makeTestClient(values: ["appearance": ["theme": "dark", "limit": 3], "tags": ["x", "y"]])
        defer { testClient.client.close() }
        await testClient.client.initialize()
        let fallback = Appearance(theme: "light", limit: 1)

        #expect(
            testClient.client.value(for: "appearance", as: Appearance.self, default: fallback)
                == Appearance(theme: "dark", limit: 3)
        )
        #expect(testClient.client.value(for: "tags", as: [String].self, default: []) == ["x", "y"])
        #expect(testClient.client.value(for: "appearance", default: "none") == #"{"limit":3,"theme":"dark"}"#)
    }
}
