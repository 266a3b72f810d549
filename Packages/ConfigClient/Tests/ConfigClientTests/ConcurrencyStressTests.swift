@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Thread safety", .timeLimit(.minutes(2)))
struct ConcurrencyStressTests {
    @Test(
        "many tasks evaluate while updates stream in, contexts change and the network pauses",
        .timeLimit(.minutes(2))
    )
    func stress() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        let server = try fixture.server
        let watch = client.values(for: "counter", default: "")

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
                for index in 0..<500 { server.serve(.strings(["counter": "\(index)"])) }
            }
            group.addTask {
                for index in 0..<5 {
                    await client.updateContext(ConfigDirectorContext(id: "user-\(index)"))
                    client.pauseNetwork()
                    await client.resumeNetwork()
                }
            }
        }
        // The full set a reconnect delivers may legitimately come after any of the deltas and replace
        // "counter": only a delta sent once everything else is done is sure to be the last word.
        server.serve(.strings(["counter": "last"]))
        var seen: String?
        for await value in watch where value == "last" {
            seen = value
            break
        }
        #expect(seen == "last")
        #expect(client.value(for: "counter", default: "") == "last")
        #expect(client.context?.id == "user-4")
        #expect(client.isReady)
    }
}
