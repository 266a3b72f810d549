import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import Testing

@Suite("Fault injection", .timeLimit(.minutes(3)))
struct FaultTests {
    @Test("answers the next N requests to a path with the status and Retry-After, then serves again")
    func statusFault() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let fault = #"{"type": "status", "path": "/client/polling/v1", "status": 503, "count": 2, "retryAfter": 7}"#
            #expect(try await HTTPClient.send("POST", Fixtures.admin(emulator, "faults"), body: fault).status == 202)
            let polling = emulator.baseURL.appendingPathComponent("client/polling/v1")
            for _ in 0..<2 {
                let response = try await HTTPClient.send("POST", polling, body: Fixtures.body())
                #expect(response.status == 503)
                #expect(response.headers["retry-after"] == "7")
            }
            #expect(try await HTTPClient.send("POST", polling, body: Fixtures.body()).status == 200)

            emulator.inject(.status(429, path: "/client/sse/v1"))
            let stream = Fixtures.openStream(emulator)
            defer { stream.cancel() }
            try await stream.waitUntilFinished()
            #expect(stream.statusCode == 429)
            #expect(emulator.recordedRequests(path: "/client/sse/v1").count == 1)
        }
    }

    @Test("drops every open stream at once, without ending the chunked body")
    func dropStreams() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let connections = try (0..<3).map { _ in try RawConnection(port: emulator.port) }
            for connection in connections { connection.post("/client/sse/v1", json: Fixtures.body()) }
            try await emulator.waitForStreams(count: 3)
            for connection in connections {
                #expect(await connection.read(timeout: 5) { Chunked.chunks(of: $0).chunks.count == 1 })
            }
            emulator.inject(.dropStreams)
            for connection in connections {
                #expect(await connection.readToEnd(timeout: 5))
                #expect(!Chunked.chunks(of: connection.received).ended)
            }
            let deadline = Date(timeIntervalSinceNow: 5)
            while !emulator.openStreams().isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
            #expect(emulator.openStreams().isEmpty)
        }
    }

    @Test("stalls the next response to a path before its first byte, once")
    func stall() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let fault = #"{"type": "stall", "seconds": 30, "path": "/client/polling/v1"}"#
            #expect(try await HTTPClient.send("POST", Fixtures.admin(emulator, "faults"), body: fault).status == 202)
            let stalled = try RawConnection(port: emulator.port)
            stalled.post("/client/polling/v1", json: Fixtures.body())
            #expect(!(await stalled.read(timeout: 0.3) { !$0.isEmpty }))
            // The stall was used up: the next request is answered well before the first one's 30 s.
            let next = try RawConnection(port: emulator.port)
            next.post("/client/polling/v1", json: Fixtures.body())
            #expect(await next.readToEnd(timeout: 10))
            #expect(next.status == 200)
            #expect(stalled.received.isEmpty)
            // Stopping the emulator ends the stalled response at once.
            emulator.stop()
            #expect(await stalled.readToEnd(timeout: 5))
        }
    }

    @Test("sends a malformed event, without an id, to every open stream")
    func malformedEvent() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let stream = Fixtures.openStream(emulator)
            defer { stream.cancel() }
            try await stream.waitForEvents { $0.count == 1 }
            emulator.inject(.malformedEvent)
            let events = try await stream.waitForEvents { $0.count == 2 }
            #expect(events[1].id == nil)
            #expect(events[1].configSet == nil)
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(events[1].data.utf8)) }
        }
    }

    @Test("sends a valid delta larger than the given size")
    func oversizedEvent() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let stream = Fixtures.openStream(emulator)
            defer { stream.cancel() }
            try await stream.waitForEvents { $0.count == 1 }
            let fault = #"{"type": "oversizedEvent", "bytes": 200000}"#
            #expect(try await HTTPClient.send("POST", Fixtures.admin(emulator, "faults"), body: fault).status == 202)
            let events = try await stream.waitForEvents { $0.count == 2 }
            #expect(events[1].data.utf8.count > 200_000)
            #expect(events[1].configSet?.kind == .delta)
            #expect(events[1].configSet?.configs.keys.sorted() == ["emulator-oversized"])
        }
    }

    @Test("writes the next event one byte per chunk")
    func byteByByte() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let connection = try RawConnection(port: emulator.port)
            connection.post("/client/sse/v1", json: Fixtures.body())
            #expect(await connection.read(timeout: 5) { Chunked.chunks(of: $0).chunks.count == 1 })
            emulator.inject(.byteByByte)
            emulator.setValue("é☃", forKey: "welcome")
            emulator.setValue("after", forKey: "welcome")
            #expect(await connection.read(timeout: 10) { String(decoding: $0, as: UTF8.self).contains("after") })
            let chunks = Chunked.chunks(of: connection.received).chunks
            let single = chunks.dropFirst().prefix { $0.count == 1 }
            let event = String(decoding: single.joined(), as: UTF8.self)
            #expect(event.hasPrefix("id: ") && event.hasSuffix("\n\n"))
            #expect(event.contains(#""value":"é☃""#))
            #expect(chunks.last.map { String(decoding: $0, as: UTF8.self).contains("after") } == true)
            #expect(chunks.last!.count > 1)
        }
    }

    @Test("closes the next stream cleanly after it has sent N events")
    func closeAfterEvents() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let fault = #"{"type": "closeAfterEvents", "count": 2}"#
            #expect(try await HTTPClient.send("POST", Fixtures.admin(emulator, "faults"), body: fault).status == 202)
            let connection = try RawConnection(port: emulator.port)
            connection.post("/client/sse/v1", json: Fixtures.body())
            try await emulator.waitForStream()
            emulator.setValue("second", forKey: "welcome")
            #expect(await connection.readToEnd(timeout: 5))
            let (chunks, ended) = Chunked.chunks(of: connection.received)
            #expect(ended)
            #expect(chunks.count == 2)
            // Only the next stream was affected.
            let later = Fixtures.openStream(emulator)
            defer { later.cancel() }
            try await later.waitForEvents { $0.count == 1 }
            emulator.setValue("third", forKey: "welcome")
            emulator.setValue("fourth", forKey: "welcome")
            try await later.waitForEvents { $0.count == 3 }
            #expect(!later.finished)
        }
    }

    @Test("rejects a fault whose parameters are out of range")
    func invalidFault() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let faults = [
                #"{"type": "status", "path": "/client/polling/v1", "status": 42}"#,
                #"{"type": "closeAfterEvents", "count": 0}"#,
                #"{"type": "meteor"}"#,
            ]
            for fault in faults {
                let response = try await HTTPClient.send("POST", Fixtures.admin(emulator, "faults"), body: fault)
                #expect(response.status == 400)
            }
            let polling = emulator.baseURL.appendingPathComponent("client/polling/v1")
            let response = try await HTTPClient.send("POST", polling, body: Fixtures.body())
            #expect(response.status == 200)
        }
    }
}
