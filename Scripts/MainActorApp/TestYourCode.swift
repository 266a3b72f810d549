import ConfigDirectorTesting

// README, "Quick start": the test client.
func testYourCode() async throws {
    let testClient = makeTestClient(values: ["new-checkout": true, "max-items": 20])
    defer { testClient.client.close() }
    await testClient.client.initialize()
    testClient.setValue(false, for: "new-checkout")
}
