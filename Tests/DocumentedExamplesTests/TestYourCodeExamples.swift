import ConfigDirectorTesting
import Testing

// The examples of "Test your code" exactly as documented, with the one import the page names: they
// compile only if `import ConfigDirectorTesting` brings everything they use.
// The suite attribute, which bounds its tests in time, is the one line added to the page's text.
@Suite(.timeLimit(.minutes(1)))
struct CheckoutTests {
    @Test func enablesTheNewCheckoutWhenTheFlagIsOn() async {
        let testClient = makeTestClient(values: ["new-checkout": true, "max-items": 20])
        defer { testClient.client.close() }
        await testClient.client.initialize()

        let checkout = Checkout(client: testClient.client)
        #expect(checkout.isNewCheckoutEnabled)

        testClient.setValue(false, for: "new-checkout")
        #expect(!checkout.isNewCheckoutEnabled)
    }
}

/// The code under test of the Checkout example.
struct Checkout {
    let client: ConfigDirectorClient

    var isNewCheckoutEnabled: Bool {
        client.value(for: "new-checkout", default: false)
    }
}

@Suite("Documented testing examples under import ConfigDirectorTesting", .timeLimit(.minutes(1)))
struct DocumentedTestingExamplesTests {
    // Each element is yielded before `next()` is called (setValue and initialize deliver synchronously),
    // so no read waits; ConfigTestingTests runs the same example under a time limit.
    @Test("watching values")
    func greetings() async {
        let testClient = makeTestClient(values: ["greeting": "hello"])
        defer { testClient.client.close() }
        var greetings = testClient.client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await greetings.next() == "none")

        await testClient.client.initialize()
        #expect(await greetings.next() == "hello")

        testClient.setValue("hi", for: "greeting")
        #expect(await greetings.next() == "hi")
    }

    @Test("a held initialize")
    func loading() async throws {
        let testClient = makeTestClient(values: ["new-checkout": true], timeout: 0.5)
        defer { testClient.client.close() }
        testClient.holdInitialization()

        let initialization = Task { await testClient.client.initialize() }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(testClient.client.isReady == false)
        #expect(testClient.client.isInitializing)

        testClient.completeInitialization()
        await initialization.value
        #expect(testClient.client.isReady)
    }

    @Test("the options: values, timeout and a logger of your own")
    func options() async {
        struct MyLogger: ConfigDirectorLogger {
            let level: ConfigDirectorLogLevel = .info

            func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {}
        }
        let testClient = makeTestClient(values: ["k": 2.5], timeout: 1, logger: MyLogger())
        defer { testClient.client.close() }
        await testClient.client.initialize(context: ConfigDirectorContext(id: "user-123"))
        #expect(testClient.client.value(for: "k", default: 0) == 2)
        #expect(testClient.contextUpdates == [ConfigDirectorContext(id: "user-123")])
        let defaultLogger = makeTestClient(values: ["k": true], logger: ConsoleLogger(level: .debug))
        defaultLogger.client.close()
    }
}
