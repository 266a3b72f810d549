@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigTesting
import XCTest

/// The test client works from XCTest as well as from Swift Testing.
final class XCTestUsageTests: XCTestCase {
    func testTestClientDrivesAHeldInitializeFromXCTest() async {
        let testClient = makeTestClient(values: ["new-checkout": true], timeout: 5)
        defer { testClient.client.close() }
        testClient.holdInitialization()
        let initialized = expectation(description: "initialize returned")
        Task {
            await testClient.client.initialize()
            initialized.fulfill()
        }
        for _ in 0..<400 where testClient.contextUpdates.isEmpty {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        XCTAssertEqual(testClient.contextUpdates, [ConfigDirectorContext()])
        XCTAssertFalse(testClient.client.isReady)
        XCTAssertTrue(testClient.client.isInitializing)

        testClient.completeInitialization()
        await fulfillment(of: [initialized], timeout: 2)

        XCTAssertTrue(testClient.client.isReady)
        XCTAssertTrue(testClient.client.value(for: "new-checkout", default: false))
        testClient.setValue(false, for: "new-checkout")
        XCTAssertFalse(testClient.client.value(for: "new-checkout", default: true))
    }
}
