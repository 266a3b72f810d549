import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import TestSupport
import Testing

@Suite("Lifecycle", .timeLimit(.minutes(3)))
struct LifecycleTests {
    @Test("stop closes streams, half-read requests and stalled responses, and leaves no thread running")
    func stopClosesEverything() async throws {
        let emulator = ConfigEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey)
        let port = try emulator.start()
        #expect(port > 0)
        #expect(emulator.port == port)
        #expect(emulator.isRunning)

        let stream = try RawConnection(port: port)
        stream.post("/client/sse/v1", json: Fixtures.body())
        let collector = Fixtures.openStream(emulator)
        defer { collector.cancel() }
        let halfSent = try RawConnection(port: port)
        halfSent.send("POST /client/polling/v1 HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
        emulator.inject(.stall(seconds: 60, path: "/client/polling/v1"))
        let stalled = try RawConnection(port: port)
        stalled.post("/client/polling/v1", json: Fixtures.body())
        try await emulator.waitForStreams(count: 2)
        // The threads of the half-sent and the stalled requests start when their connections are
        // accepted, which the streams do not wait for.
        for _ in 0..<3000 where emulator.activeThreadCount < 5 { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(emulator.activeThreadCount >= 5)

        emulator.stop()
        #expect(emulator.activeThreadCount == 0)
        #expect(!emulator.isRunning)
        for connection in [stream, halfSent, stalled] { #expect(await connection.readToEnd(timeout: 5)) }
        try await collector.waitUntilFinished()
        // Whether the port now refuses connections is not checked: a test running in parallel may
        // already have been given the same ephemeral port by the system.
        emulator.stop()
        #expect(throws: EmulatorError.alreadyStarted) { try emulator.start() }
    }

    @Test("refuses a second start, and reports a port it cannot bind")
    func startErrors() throws {
        let emulator = ConfigEmulator(configs: [])
        let port = try emulator.start()
        defer { emulator.stop() }
        #expect(throws: EmulatorError.alreadyStarted) { try emulator.start() }
        let rival = ConfigEmulator(configs: [], port: port)
        #expect {
            try rival.start()
        } throws: { error in
            guard case EmulatorError.cannotListen = error else { return false }
            return true
        }
        let badHost = ConfigEmulator(configuration: EmulatorConfiguration(host: "not-an-address"))
        #expect(throws: EmulatorError.self) { try badHost.start() }
    }

    @Test("the harness stops its emulator when the body throws")
    func harnessStopsOnThrow() async throws {
        struct Expected: Error {}
        let box = Protected<ConfigEmulator?>(nil)
        await #expect(throws: Expected.self) {
            try await withEmulator(configs: Fixtures.configs) { emulator in
                box.set(emulator)
                #expect(emulator.isRunning)
                throw Expected()
            }
        }
        let emulator = try #require(box.current)
        #expect(!emulator.isRunning)
        #expect(emulator.activeThreadCount == 0)
    }
}
