@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigTesting
import TestSupport
import Testing

@Suite("Test clients are independent", .timeLimit(.minutes(1)))
struct IndependenceTests {
    @Test("many test clients used at once each serve only their own values and record their own contexts")
    func concurrentTestClients() async {
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<32 {
                group.addTask {
                    let testClient = makeTestClient(values: ["index": .integer(index)])
                    defer { testClient.client.close() }
                    if index.isMultiple(of: 2) { testClient.holdInitialization() }
                    let user = ConfigDirectorContext(id: "user-\(index)")
                    let initialization = Task { await testClient.client.initialize(context: user) }
                    if index.isMultiple(of: 2) {
                        _ = await eventually { testClient.contextUpdates.count == 1 }
                        testClient.completeInitialization()
                    }
                    await initialization.value
                    testClient.setValue(.integer(index * 10), for: "index")
                    return testClient.client.isReady
                        && testClient.client.value(for: "index", default: -1) == index * 10
                        && testClient.contextUpdates == [user]
                }
            }
            var outcomes: [Bool] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.count == 32)
        #expect(outcomes.allSatisfy { $0 })
    }
}
