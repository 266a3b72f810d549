@_spi(Testing) import ClientTestSupport
@_spi(Internal) import ConfigModel
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@testable @_spi(Internal) @_spi(Testing) import ConfigClient

/// The points a test waits for to know that something did not happen: a queue's turn, a task set
/// and a client gone quiet.
@Suite("Going quiet", .timeLimit(.minutes(1)))
struct GoingQuietTests {
    @Test("a task set is idle once its tasks ended, those they started included, but not the cancelled")
    func taskSetIdle() async {
        let tasks = TaskSet()
        let ran = Protected<[String]>([])
        let (wait, open) = gate()
        tasks.start {
            await wait()
            tasks.start { ran.withLock { $0.append("started by the first") } }
            ran.withLock { $0.append("first") }
        }
        let (never, _) = gate()
        let cancelled = tasks.start { await never() }
        tasks.cancel(cancelled)
        #expect(!tasks.isEmpty)

        let idle = Task { await tasks.idle() }
        open()
        await idle.value
        #expect(ran.current == ["first", "started by the first"])
        #expect(tasks.isEmpty)
    }

    @Test("the client goes quiet once a foreground resume has connected")
    func quietAfterResume() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        fixture.lifecycle.send(.didEnterBackground)
        fixture.lifecycle.send(.willEnterForeground)
        await fixture.client.core.wentQuiet()
        #expect(try fixture.transport.reasons == [.initialization, .networkResume])
        #expect(fixture.client.isReady)
    }

    @Test("the client goes quiet once the batch a flush queued was given to the sink")
    func quietAfterTelemetry() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        _ = fixture.client.value(for: "dark-mode", default: false)
        fixture.lifecycle.send(.didEnterBackground)
        await fixture.client.core.wentQuiet()
        #expect(fixture.telemetry.batches.count == 1)
    }

    @Test("a held connect keeps the client from going quiet until its deadline passes")
    func quietAfterDeadline() async throws {
        let fixture = try ClientFixture(answer: .hold)
        defer { fixture.client.close() }
        let initialization = Task { await fixture.client.initialize() }
        #expect(await eventually { fixture.clock.sleeperCount == 2 })
        let quiet = Task { await fixture.client.core.wentQuiet() }
        fixture.clock.advance(by: 5)
        await quiet.value
        #expect(!fixture.client.isAwaitingConnect)
        #expect(fixture.logger.messages(at: .warn).contains { $0.contains("Timed out") })
        await initialization.value
    }
}
