import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import Testing

@Suite("Streaming", .timeLimit(.minutes(3)))
struct StreamingTests {
    @Test("opens with the full set for the context, then sends a delta with an id for a change")
    func fullSetThenDelta() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let stream = Fixtures.openStream(emulator, context: ConfigDirectorContext(id: "user-1"))
            defer { stream.cancel() }
            let opening = try await stream.waitForEvents { $0.count == 1 }
            #expect(stream.statusCode == 200)
            let full = try #require(opening[0].configSet)
            #expect(full.kind == .full)
            #expect(full.configs.keys.sorted() == ["dark-mode", "max-items", "welcome"])
            #expect(full.configs["dark-mode"]?.value == "true")
            #expect(
                full.configs["welcome"] == ConfigState(id: "welcome", key: "welcome", type: .string, value: "hello"))
            #expect(opening[0].id?.isEmpty == false)

            emulator.setValue("bonjour", forKey: "welcome")
            let events = try await stream.waitForEvents { $0.count == 2 }
            let delta = try #require(events[1].configSet)
            #expect(delta.kind == .delta)
            #expect(
                delta.configs == [
                    "welcome": ConfigState(id: "welcome", key: "welcome", type: .string, value: "bonjour")
                ])
            #expect(events[1].id != nil && events[1].id != events[0].id)
            #expect(delta.timestamp != nil)
        }
    }

    @Test("sends no delta to a stream whose context sees the same value after a change")
    func unaffectedStreamGetsNothing() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let pro = Fixtures.openStream(emulator, context: ConfigDirectorContext(id: "p", traits: ["plan": "pro"]))
            let free = Fixtures.openStream(emulator, context: ConfigDirectorContext(id: "f", traits: ["plan": "free"]))
            defer {
                pro.cancel()
                free.cancel()
            }
            try await pro.waitForEvents { $0.count == 1 }
            try await free.waitForEvents { $0.count == 1 }
            // Only the default changes: the pro plan's rule still serves `true`.
            emulator.setValue(true, forKey: "dark-mode")
            let freeEvents = try await free.waitForEvents { $0.count == 2 }
            #expect(freeEvents[1].configSet?.configs["dark-mode"]?.value == "true")
            // A later change that reaches both shows that nothing was queued for `pro` in between.
            emulator.setValue("again", forKey: "welcome")
            let proEvents = try await pro.waitForEvents { $0.count == 2 }
            #expect(proEvents[1].configSet?.configs.keys.sorted() == ["welcome"])
        }
    }

    @Test("sends a full set without the key when a config is removed")
    func removalSendsFullSet() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let stream = Fixtures.openStream(emulator)
            defer { stream.cancel() }
            try await stream.waitForEvents { $0.count == 1 }
            #expect(emulator.removeConfig(forKey: "welcome"))
            #expect(!emulator.removeConfig(forKey: "welcome"))
            let events = try await stream.waitForEvents { $0.count == 2 }
            let set = try #require(events[1].configSet)
            #expect(set.kind == .full)
            #expect(set.configs.keys.sorted() == ["dark-mode", "max-items"])
        }
    }

    @Test("writes a heartbeat comment after the configured silence")
    func heartbeat() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey, heartbeatInterval: 0.1) { emulator in
            let stream = Fixtures.openStream(emulator)
            defer { stream.cancel() }
            try await stream.waitForEvents { $0.count == 1 }
            let deadline = Date(timeIntervalSinceNow: 5)
            while !stream.text.contains(": heartbeat\n"), Date() < deadline {
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            #expect(stream.text.contains(": heartbeat\n"))
        }
    }

    @Test("replays the missed changes as one delta to a reconnect whose Last-Event-ID is held")
    func replaysHeldDeltas() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let first = Fixtures.openStream(emulator)
            let opening = try await first.waitForEvents { $0.count == 1 }
            first.cancel()
            emulator.setValue("one", forKey: "welcome")
            emulator.setValue(50, forKey: "max-items")

            let again = Fixtures.openStream(emulator, headers: ["Last-Event-ID": try #require(opening[0].id)])
            defer { again.cancel() }
            let events = try await again.waitForEvents { $0.count == 1 }
            let delta = try #require(events[0].configSet)
            #expect(delta.kind == .delta)
            #expect(delta.configs.keys.sorted() == ["max-items", "welcome"])
            #expect(delta.configs["welcome"]?.value == "one")
            #expect(emulator.openStreams().last?.lastEventID == opening[0].id)
        }
    }

    @Test("sends a full set to a reconnect with an id it does not hold, and nothing to one that is current")
    func unknownLastEventID() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let stranger = Fixtures.openStream(emulator, headers: ["Last-Event-ID": "someone-else-7"])
            defer { stranger.cancel() }
            let events = try await stranger.waitForEvents { $0.count == 1 }
            #expect(events[0].configSet?.kind == .full)

            let current = Fixtures.openStream(emulator, headers: ["Last-Event-ID": try #require(events[0].id)])
            defer { current.cancel() }
            try await emulator.waitForStreams(count: 2)
            emulator.setValue("later", forKey: "welcome")
            let currentEvents = try await current.waitForEvents { $0.count == 1 }
            #expect(currentEvents[0].configSet?.kind == .delta)
        }
    }

    @Test("sends a full set when keys were removed since the Last-Event-ID")
    func replayAfterRemovalIsFull() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let first = Fixtures.openStream(emulator)
            let opening = try await first.waitForEvents { $0.count == 1 }
            first.cancel()
            emulator.removeConfig(forKey: "max-items")
            let again = Fixtures.openStream(emulator, headers: ["Last-Event-ID": try #require(opening[0].id)])
            defer { again.cancel() }
            let events = try await again.waitForEvents { $0.count == 1 }
            #expect(events[0].configSet?.kind == .full)
            #expect(events[0].configSet?.configs.keys.sorted() == ["dark-mode", "welcome"])
        }
    }

    @Test("answers the stream with text/event-stream and no-store over chunked encoding")
    func streamHeaders() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let connection = try RawConnection(port: emulator.port)
            connection.post("/client/sse/v1", json: Fixtures.body())
            #expect(await connection.read(timeout: 5) { String(decoding: $0, as: UTF8.self).contains("\n\n\r\n") })
            let head = connection.text.components(separatedBy: "\r\n\r\n")[0].lowercased()
            #expect(connection.status == 200)
            #expect(head.contains("content-type: text/event-stream"))
            #expect(head.contains("cache-control: no-store"))
            #expect(head.contains("transfer-encoding: chunked"))
        }
    }
}
