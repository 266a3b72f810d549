@_spi(Internal) import ConfigClient
import ConfigTesting
import Testing

// The documented example of "Controls", verbatim: every wait in it is bounded by the client's timeout.
@Suite("Documented example: a held initialize", .timeLimit(.minutes(1)))
struct LoadingTests {
    @Test("a held initialize leaves the client initializing until the test completes it")
    func heldInitialize() async throws {
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
}
