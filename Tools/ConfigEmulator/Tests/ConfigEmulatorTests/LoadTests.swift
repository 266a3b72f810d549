import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import Testing

@Suite("Load", .timeLimit(.minutes(3)))
struct LoadTests {
    @Test("holds 200 concurrent streams and pushes a change to every one")
    func twoHundredStreams() async throws {
        let count = 200
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let before = ResidentMemory.current()
            var connections: [RawConnection] = []
            for index in 0..<count {
                let connection = try RawConnection(port: emulator.port)
                connection.post(
                    "/client/sse/v1", json: Fixtures.body(context: ConfigDirectorContext(id: "user-\(index)")))
                connections.append(connection)
            }
            try await emulator.waitForStreams(count: count, timeout: 30)
            // Each wait is bounded, and none is waited for after the first that fails.
            var received = 0
            for connection in connections {
                guard await connection.read(timeout: 10, until: { Chunked.chunks(of: $0).chunks.count == 1 }) else {
                    break
                }
                received += 1
            }
            #expect(received == count, "a stream did not receive its first event within 10 s")
            let after = ResidentMemory.current()
            #expect(emulator.openStreams().count == count)
            #expect(emulator.activeThreadCount == count + 1)

            emulator.setValue("everyone", forKey: "welcome")
            var reached = 0
            for connection in connections {
                guard await connection.read(timeout: 10, until: { Chunked.chunks(of: $0).chunks.count == 2 }) else {
                    break
                }
                reached += 1
            }
            #expect(reached == count)
            if let before, let after {
                let perStream = (after - before) / count
                print(
                    "[emulator load] \(count) streams: RSS \(before / 1024) KiB -> \(after / 1024) KiB, "
                        + "about \(perStream / 1024) KiB per stream (server thread, client socket and buffers)")
            }
            for connection in connections { connection.close() }
            let deadline = Date(timeIntervalSinceNow: 10)
            while !emulator.openStreams().isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(emulator.openStreams().isEmpty)
        }
    }
}
