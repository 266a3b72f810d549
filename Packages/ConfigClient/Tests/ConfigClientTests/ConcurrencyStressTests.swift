@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import Testing

@Suite("Thread safety")
struct ConcurrencyStressTests {
    @Test(
        "many tasks evaluate while updates stream in, contexts change and the network pauses",
        .timeLimit(.minutes(1))
    )
    func stress() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        let transport = try fixture.transport
        var watch = client.values(for: "counter", default: "").makeAsyncIterator()

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<2_000 {
                        _ = client.value(for: "counter", default: "")
                        _ = client.value(for: "dark-mode", default: false)
                    }
                }
            }
            group.addTask {
                for index in 0..<500 { transport.deliver(.strings(["counter": "\(index)"])) }
            }
            group.addTask {
                for index in 0..<5 {
                    await client.updateContext(ConfigDirectorContext(id: "user-\(index)"))
                    client.pauseNetwork()
                    await client.resumeNetwork()
                }
            }
        }
        #expect(client.context?.id == "user-4")
        #expect(client.isReady)
        // Sets delivered while paused are dropped and full sets replace deltas, so only a value
        // delivered once everything settled is sure to reach the stream.
        transport.deliver(.strings(["counter": "settled"]))
        while let value = await watch.next(), value != "settled" {}
        #expect(client.value(for: "counter", default: "") == "settled")
    }
}
