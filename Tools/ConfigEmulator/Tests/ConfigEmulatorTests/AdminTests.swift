import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import Testing

@Suite("Admin API", .timeLimit(.minutes(3)))
struct AdminTests {
    @Test("sets a config, changes its value, removes it and replaces all, each reaching an open stream")
    func configOperations() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let stream = Fixtures.openStream(emulator)
            defer { stream.cancel() }
            try await stream.waitForEvents { $0.count == 1 }

            let added = #"{"key": "banner", "type": "string", "value": "sale"}"#
            #expect(try await HTTPClient.send("POST", Fixtures.admin(emulator, "configs"), body: added).status == 200)
            var events = try await stream.waitForEvents { $0.count == 2 }
            #expect(events[1].configSet?.configs["banner"]?.value == "sale")

            let value = Fixtures.admin(emulator, "configs/banner/value")
            #expect(try await HTTPClient.send("PUT", value, body: #""clearance""#).status == 200)
            events = try await stream.waitForEvents { $0.count == 3 }
            #expect(events[2].configSet?.configs["banner"]?.value == "clearance")
            let missing = Fixtures.admin(emulator, "configs/nothing/value")
            #expect(try await HTTPClient.send("PUT", missing, body: "1").status == 404)

            let read = try await HTTPClient.send("GET", Fixtures.admin(emulator, "configs/banner"))
            #expect(try read.decode(EmulatedConfig.self).value == "clearance")

            #expect(try await HTTPClient.send("DELETE", Fixtures.admin(emulator, "configs/banner")).status == 204)
            events = try await stream.waitForEvents { $0.count == 4 }
            #expect(events[3].configSet?.kind == .full)
            #expect(events[3].configSet?.configs["banner"] == nil)

            let replacement = #"{"environmentId": "e2", "configs": [{"key": "only", "type": "integer", "value": 7}]}"#
            let replaced = try await HTTPClient.send("PUT", Fixtures.admin(emulator, "configs"), body: replacement)
            #expect(replaced.status == 200)
            events = try await stream.waitForEvents { $0.count == 5 }
            #expect(events[4].configSet?.configs.keys.sorted() == ["only"])
            #expect(events[4].configSet?.environmentID == "e2")
            let document = try await HTTPClient.send("GET", Fixtures.admin(emulator, "configs")).decode(
                ConfigsDocument.self)
            #expect(document.configs.map(\.key) == ["only"])
            #expect(emulator.document == document)
        }
    }

    @Test("answers 400 with the reason to a config that does not decode")
    func invalidConfig() async throws {
        try await withEmulator(sdkKey: Fixtures.sdkKey) { emulator in
            let response = try await HTTPClient.send(
                "POST", Fixtures.admin(emulator, "configs"), body: #"{"key": "k"}"#
            )
            #expect(response.status == 400)
            #expect(response.text.contains("type"))
            #expect(emulator.document.configs.isEmpty)
        }
    }

    @Test("lists open streams with their contexts, and waits for them")
    func streams() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            async let waited = HTTPClient.send("GET", Fixtures.admin(emulator, "streams/wait?count=2&timeout=10"))
            let tenant = Fixtures.openStream(emulator, context: ConfigDirectorContext(id: "acme", kind: "tenant"))
            let user = Fixtures.openStream(emulator, context: ConfigDirectorContext(id: "u", traits: ["n": 1]))
            defer {
                tenant.cancel()
                user.cancel()
            }
            let response = try await waited
            #expect(response.status == 200)
            let listed = try await HTTPClient.send("GET", Fixtures.admin(emulator, "streams"))
                .decode([EmulatorStream].self)
            #expect(
                Set(listed.map(\.context)) == [
                    ConfigDirectorContext(id: "acme", kind: "tenant"), ConfigDirectorContext(id: "u", traits: ["n": 1]),
                ])
            let found = try await emulator.waitForStream { $0.context.kind == "tenant" }
            #expect(found.context.id == "acme")

            tenant.cancel()
            let deadline = Date(timeIntervalSinceNow: 5)
            while emulator.openStreams().count > 1, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(emulator.openStreams().map(\.context.id) == ["u"])
        }
    }

    @Test("times out waiting for a stream that never opens")
    func waitTimesOut() async throws {
        try await withEmulator(sdkKey: Fixtures.sdkKey) { emulator in
            await #expect(throws: EmulatorError.self) { try await emulator.waitForStream(timeout: 0.05) }
            let response = try await HTTPClient.send("GET", Fixtures.admin(emulator, "streams/wait?timeout=0.05"))
            #expect(response.status == 408)
        }
    }

    @Test("reports recorded requests and telemetry batches, and clears them")
    func records() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            _ = try await HTTPClient.send(
                "POST", emulator.baseURL.appendingPathComponent("client/polling/v1"), body: Fixtures.body()
            )
            _ = try await HTTPClient.send(
                "POST", emulator.baseURL.appendingPathComponent("client/telemetry/v1"),
                body: #"{"clientSdkKey": "\#(Fixtures.sdkKey)", "aggregatedEvents": {}}"#
            )
            let requests = try await HTTPClient.send("GET", Fixtures.admin(emulator, "requests"))
                .decode([RecordedRequest].self)
            #expect(requests.map(\.path) == ["/client/polling/v1", "/client/telemetry/v1"])
            #expect(requests[0].bodyText == Fixtures.body())
            let filtered = try await HTTPClient.send(
                "GET", Fixtures.admin(emulator, "requests?path=/client/telemetry/v1")
            )
            .decode([RecordedRequest].self)
            #expect(filtered.count == 1)
            let batches = try await HTTPClient.send("GET", Fixtures.admin(emulator, "telemetry"))
                .decode([TelemetryBatch].self)
            #expect(batches.count == 1)
            #expect(try await HTTPClient.send("DELETE", Fixtures.admin(emulator, "requests")).status == 204)
            #expect(emulator.recordedRequests().isEmpty)
            #expect(emulator.telemetryBatches().isEmpty)
        }
    }

    @Test("answers 404 to an unknown admin path and 405 to a wrong method")
    func unknownAdmin() async throws {
        try await withEmulator(sdkKey: Fixtures.sdkKey) { emulator in
            #expect(try await HTTPClient.send("GET", Fixtures.admin(emulator, "nothing")).status == 404)
            #expect(try await HTTPClient.send("PATCH", Fixtures.admin(emulator, "streams"), body: "{}").status == 405)
            let health = try await HTTPClient.send("GET", Fixtures.admin(emulator, "health"))
            #expect(health.status == 200)
            #expect(health.text.contains("\"port\":\(emulator.port)"))
        }
    }
}
