@_spi(Internal) import ConfigClient
import ConfigTesting
import Testing

// The documented example of "Watching values", verbatim inside a time limit, so that a stream that
// never yields fails the test instead of hanging it.
@Suite("Documented example: watching values", .timeLimit(.minutes(1)))
struct GreetingTests {
    @Test("a values stream yields the current value, then each value the test sets")
    func greetings() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello"])
            defer { testClient.client.close() }
            var greetings = testClient.client.values(for: "greeting", default: "none").makeAsyncIterator()
            #expect(await greetings.next() == "none")

            await testClient.client.initialize()
            #expect(await greetings.next() == "hello")

            testClient.setValue("hi", for: "greeting")
            #expect(await greetings.next() == "hi")
        }
    }

    @Test("two setValue calls before the next read arrive as one element")
    func newestValueOnly() async throws {
        try await withTimeLimit {
            let testClient = makeTestClient(values: ["greeting": "hello"])
            defer { testClient.client.close() }
            await testClient.client.initialize()
            var greetings = testClient.client.values(for: "greeting", default: "none").makeAsyncIterator()
            #expect(await greetings.next() == "hello")

            testClient.setValue("hi", for: "greeting")
            testClient.setValue("hey", for: "greeting")
            #expect(await greetings.next() == "hey")
            testClient.client.close()
            #expect(await greetings.next() == nil)
        }
    }
}
