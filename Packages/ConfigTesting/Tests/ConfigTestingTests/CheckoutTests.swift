@_spi(Internal) import ConfigClient
import ConfigTesting
import Testing

// The documented example of "Test your code", verbatim but for the imports and the display names: a
// package's tests import its modules, while Tests/ConfigDirectorTests runs the example exactly as
// documented, under `import ConfigDirectorTesting`.
@Suite("Documented example: Checkout", .timeLimit(.minutes(1)))
struct CheckoutTests {
    @Test("enables the new checkout when the flag is on")
    func enablesTheNewCheckoutWhenTheFlagIsOn() async {
        let testClient = makeTestClient(values: ["new-checkout": true, "max-items": 20])
        defer { testClient.client.close() }
        await testClient.client.initialize()

        let checkout = Checkout(client: testClient.client)
        #expect(checkout.isNewCheckoutEnabled)

        testClient.setValue(false, for: "new-checkout")
        #expect(!checkout.isNewCheckoutEnabled)
    }
}
