import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import Testing

@Suite("Polling, telemetry and the SDK key", .timeLimit(.minutes(3)))
struct ClientEndpointTests {
    @Test("answers polling with the full set for the context and a timestamp")
    func polling() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let response = try await HTTPClient.send(
                "POST", emulator.baseURL.appendingPathComponent("client/polling/v1"),
                body: Fixtures.body(context: ConfigDirectorContext(id: "acme", kind: "tenant"))
            )
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            let set = try response.decode(ConfigSet.self)
            #expect(set.kind == .full)
            #expect(set.configs["max-items"]?.value == "100")
            #expect(set.configs["dark-mode"]?.value == "false")
            let timestamp = try #require(set.timestamp)
            #expect(ISO8601DateFormatter.withMilliseconds.date(from: timestamp) != nil)
        }
    }

    @Test("accepts a telemetry batch with 202 and records it decoded")
    func telemetry() async throws {
        try await withEmulator(sdkKey: Fixtures.sdkKey) { emulator in
            let batch = """
                {"clientSdkKey":"\(Fixtures.sdkKey)","metaContext":{"sdkName":"swift-client-sdk"},
                 "context":{"id":"user-1","kind":"user"},"discreteEvents":{},
                 "aggregatedEvents":{"evaluatedConfig":[{"count":3,"event":{"key":"dark-mode"}}]},
                 "droppedEvents":{"evaluatedConfig":0}}
                """
            let response = try await HTTPClient.send(
                "POST", emulator.baseURL.appendingPathComponent("client/telemetry/v1"), body: batch
            )
            #expect(response.status == 202)
            let batches = emulator.telemetryBatches()
            #expect(batches.count == 1)
            #expect(batches.first?.context == ConfigDirectorContext(id: "user-1", kind: "user"))
            #expect(batches.first?.evaluatedConfigEvents.count == 1)
        }
    }

    @Test(
        "answers 401 to another SDK key on every client endpoint",
        arguments: [
            "client/sse/v1", "client/polling/v1", "client/telemetry/v1",
        ])
    func wrongKey(path: String) async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let response = try await HTTPClient.send(
                "POST", emulator.baseURL.appendingPathComponent(path), body: Fixtures.body(key: "someone-else")
            )
            #expect(response.status == 401)
            #expect(emulator.openStreams().isEmpty)
            #expect(emulator.telemetryBatches().isEmpty)
        }
    }

    @Test("answers 400 to a body that is not a connection request, 405 to GET and 404 to other paths")
    func badRequests() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let polling = emulator.baseURL.appendingPathComponent("client/polling/v1")
            let notJSON = try await HTTPClient.send("POST", polling, body: "not json")
            #expect(notJSON.status == 400)
            let badContext = try await HTTPClient.send("POST", polling, body: #"{"givenContext": 5}"#)
            #expect(badContext.status == 400)
            let get = try await HTTPClient.send("GET", polling)
            #expect(get.status == 405)
            #expect(get.headers["allow"] == "POST")
            let other = try await HTTPClient.send(
                "POST", emulator.baseURL.appendingPathComponent("client/x/v1"), body: "{}")
            #expect(other.status == 404)
        }
    }

    @Test("records the method, path, headers and body of client requests")
    func recordsRequests() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let body = Fixtures.body()
            _ = try await HTTPClient.send(
                "POST", emulator.baseURL.appendingPathComponent("client/polling/v1"), body: body,
                headers: ["Cache-Control": "no-store"]
            )
            _ = try await HTTPClient.send("GET", Fixtures.admin(emulator, "health"))
            let requests = emulator.recordedRequests()
            #expect(requests.count == 1)
            let request = try #require(requests.first)
            #expect(request.method == "POST")
            #expect(request.path == "/client/polling/v1")
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["cache-control"] == "no-store")
            #expect(request.bodyText == body)
            #expect(emulator.recordedRequests(path: "/client/sse/v1").isEmpty)
        }
    }
}

extension ISO8601DateFormatter {
    /// A formatter for ISO 8601 with milliseconds, made fresh because formatters are not Sendable.
    static var withMilliseconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
