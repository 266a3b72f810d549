@_spi(Internal) @_spi(Testing) import ConfigClient
import ConfigEmulator
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Internal) import ConfigTransport
import EmulatorTestSupport
import Foundation
import ModelTestSupport
import TestSupport
import Testing

/// ConfigDirectorClient over HTTP, with real telemetry, against the emulator over loopback (issue 6),
/// in both connection modes.
@Suite("The client against the emulator", .timeLimit(.minutes(3)))
struct ClientEndToEndTests {
    private static let modes: [ConnectionMode] = [.streaming, .polling]

    private static func path(of mode: ConnectionMode) -> String {
        mode == .polling ? "/client/polling/v1" : "/client/sse/v1"
    }

    @Test("initialize sends the context and serves the values of that context", arguments: modes)
    func initializeWithContext(mode: ConnectionMode) async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let pro = try EndToEndClient(mode: mode, baseURL: emulator.baseURL)
            let other = try EndToEndClient(mode: mode, baseURL: emulator.baseURL)
            defer {
                pro.client.close()
                other.client.close()
            }
            #expect(pro.client.value(for: "dark-mode", default: false) == false)

            await pro.client.initialize(context: proUser)
            await other.client.initialize(context: otherUser)

            #expect(pro.client.isReady)
            #expect(!pro.client.isInitializing)
            #expect(pro.client.context == proUser)
            #expect(pro.client.valueSource == .live)
            #expect(pro.client.value(for: "dark-mode", default: false) == true)
            #expect(pro.client.value(for: "greeting", default: "none") == "hello, pro")
            #expect(pro.client.value(for: "max-items", default: 0) == 20)
            #expect(other.client.isReady)
            #expect(other.client.value(for: "dark-mode", default: true) == false)
            #expect(other.client.value(for: "greeting", default: "none") == "hello")
            #expect(other.client.value(for: "max-items", default: 0) == 20)

            let bodies = try emulator.recordedRequests(path: Self.path(of: mode)).map(ConnectionRequestBody.init)
            #expect(bodies.contains { $0.givenContext == proUser })
            #expect(bodies.contains { $0.givenContext == otherUser })
            #expect(bodies.allSatisfy { $0.clientSdkKey == emulatorSDKKey && $0.instanceId != nil })
            if mode == .streaming {
                #expect(Set(emulator.openStreams().map(\.context)) == [proUser, otherUser])
            }
        }
    }

    @Test("a value changed on the server reaches a values(for:default:) stream", arguments: modes)
    func watchStreamYieldsAChange(mode: ConnectionMode) async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let e2e = try EndToEndClient(mode: mode, baseURL: emulator.baseURL)
            defer { e2e.client.close() }
            await e2e.client.initialize(context: proUser)
            let maxItems = StreamCollector(e2e.client.values(for: "max-items", default: 0))
            defer { maxItems.cancel() }
            #expect(await maxItems.wait { $0 == [20] })

            emulator.setValue(25, forKey: "max-items")
            #expect(await maxItems.wait { $0.last == 25 })
            // Polling receives the whole set on every fetch: equal values are not repeated.
            #expect(maxItems.all == [20, 25])
            #expect(e2e.client.value(for: "max-items", default: 0) == 25)
        }
    }

    @Test("under updatePolicy .onActivate, a value changed on the server waits for activate()", arguments: modes)
    func changeWaitsForActivate(mode: ConnectionMode) async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let e2e = try EndToEndClient(mode: mode, baseURL: emulator.baseURL, updatePolicy: .onActivate)
            defer { e2e.client.close() }
            await e2e.client.initialize(context: proUser)
            let maxItems = StreamCollector(e2e.client.values(for: "max-items", default: 0))
            defer { maxItems.cancel() }
            #expect(await maxItems.wait { $0 == [20] })

            emulator.setValue(25, forKey: "max-items")
            #expect(await eventually(timeout: longestWait) { e2e.client.hasPendingValues })
            #expect(e2e.client.value(for: "max-items", default: 0) == 20)
            #expect(e2e.client.activate())
            #expect(e2e.client.value(for: "max-items", default: 0) == 25)
            #expect(await maxItems.wait { $0.last == 25 })
            #expect(maxItems.all == [20, 25])
        }
    }

    @Test("a context update connects with the new context and serves its values", arguments: modes)
    func contextUpdate(mode: ConnectionMode) async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let e2e = try EndToEndClient(mode: mode, baseURL: emulator.baseURL)
            defer { e2e.client.close() }
            await e2e.client.initialize(context: proUser)
            let events = StreamCollector(e2e.client.events)
            let darkMode = StreamCollector(e2e.client.values(for: "dark-mode", default: false))
            defer {
                events.cancel()
                darkMode.cancel()
            }
            #expect(await darkMode.wait { $0 == [true] })

            await e2e.client.updateContext(otherUser)

            #expect(e2e.client.isReady)
            #expect(e2e.client.context == otherUser)
            #expect(e2e.client.value(for: "dark-mode", default: true) == false)
            #expect(e2e.client.value(for: "greeting", default: "none") == "hello")
            #expect(await darkMode.wait { $0 == [true, false] })
            #expect(await events.wait { $0.contains(.ready(.contextUpdate)) })
            let contextUpdated = events.all.firstIndex(of: .contextUpdated(otherUser))
            let ready = events.all.firstIndex(of: .ready(.contextUpdate))
            #expect(contextUpdated != nil && contextUpdated! < ready!)

            let bodies = try emulator.recordedRequests(path: Self.path(of: mode)).map(ConnectionRequestBody.init)
            #expect(bodies.first?.givenContext == proUser)
            #expect(bodies.last?.givenContext == otherUser)
            if mode == .streaming {
                // Each connect replaces the last: the stream of the first context closes.
                #expect(await eventually(timeout: longestWait) { emulator.openStreams().map(\.context) == [otherUser] })
            }
        }
    }

    @Test("through a server outage the values are kept, and after it the client catches up", arguments: modes)
    func outageAndRecovery(mode: ConnectionMode) async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let port = emulator.port
            let e2e = try EndToEndClient(mode: mode, baseURL: emulator.baseURL)
            defer { e2e.client.close() }
            await e2e.client.initialize(context: proUser)
            let maxItems = StreamCollector(e2e.client.values(for: "max-items", default: 0))
            defer { maxItems.cancel() }
            #expect(await maxItems.wait { $0 == [20] })

            func reconnects() -> Int { e2e.logger.messages(at: .debug).filter { $0.hasPrefix("Reconnecting") }.count }
            let reconnectsBefore = reconnects()
            emulator.stop()
            // Two reconnects announced while nothing listens: the first attempt after the stop has failed.
            #expect(await eventually { reconnects() >= reconnectsBefore + 2 })
            #expect(e2e.client.value(for: "max-items", default: 0) == 20)
            #expect(e2e.client.value(for: "dark-mode", default: false) == true)

            var changed = servedConfigs
            changed[2].value = 40
            let restarted = try await restartEmulator(onPort: port, configs: changed)
            defer { restarted.stop() }
            #expect(await maxItems.wait { $0.last == 40 })
            #expect(maxItems.all == [20, 40])
            #expect(e2e.client.isReady)
            #expect(e2e.client.context == proUser)
            #expect(e2e.client.value(for: "dark-mode", default: false) == true)
            let bodies = try restarted.recordedRequests(path: Self.path(of: mode)).map(ConnectionRequestBody.init)
            #expect(!bodies.isEmpty && bodies.allSatisfy { $0.givenContext == proUser })
            if mode == .streaming {
                // The new emulator knows nothing of the old one's event ids and sent a full set.
                #expect(await eventually(timeout: longestWait) { restarted.openStreams().map(\.context) == [proUser] })
            }
        }
    }

    @Test("401: the client is not ready, no longer initializing, and logs one error", arguments: modes)
    func unauthorized(mode: ConnectionMode) async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let e2e = try EndToEndClient(mode: mode, baseURL: emulator.baseURL, sdkKey: "not-the-key")
            defer { e2e.client.close() }

            await e2e.client.initialize(context: proUser)

            #expect(!e2e.client.isReady)
            #expect(!e2e.client.isInitializing)
            #expect(e2e.client.valueSource == .none)
            #expect(e2e.client.value(for: "dark-mode", default: false) == false)
            // Time for a wrong retry to show (attempt 1 and a polling interval are 0.3 s at most here).
            try await Task.sleep(nanoseconds: 500_000_000)
            #expect(emulator.recordedRequests(path: Self.path(of: mode)).count == 1)
            // The evaluation above is reported with the same key, and telemetry is refused for good as well:
            // that refusal is logged on its own, once.
            let errors = e2e.logger.lines(at: .error)
            let connectionErrors = errors.filter { !$0.hasPrefix("Telemetry") }
            #expect(connectionErrors.count == 1, "errors logged: \(errors)")
            #expect(connectionErrors.first?.hasPrefix("An error occurred during initialization: ") == true)
            #expect(connectionErrors.first?.contains("(HTTP 401)") == true)
            #expect(errors.count - connectionErrors.count <= 1)
            #expect(!e2e.logger.messages.contains { $0.contains("not-the-key") })
        }
    }

    @Test("close flushes telemetry, and the emulator receives the evaluations aggregated", arguments: modes)
    func telemetryIsAggregated(mode: ConnectionMode) async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            // Real time, so that the first timed flush (5 s) does not split the batch.
            let e2e = try EndToEndClient(mode: mode, baseURL: emulator.baseURL, scale: 1)
            defer { e2e.client.close() }
            await e2e.client.initialize(context: proUser)
            #expect(e2e.client.isReady)
            for _ in 0..<3 { _ = e2e.client.value(for: "dark-mode", default: false) }
            for _ in 0..<2 { _ = e2e.client.value(for: "greeting", default: "none") }
            _ = e2e.client.value(for: "missing", default: 7)

            e2e.client.close()
            #expect(await eventually(timeout: longestWait) { !emulator.telemetryBatches().isEmpty })

            let batches = emulator.telemetryBatches()
            try #require(batches.count == 1)
            let batch = batches[0]
            #expect(batch.context == proUser)
            #expect(batch.body["clientSdkKey"] == .string(emulatorSDKKey))
            #expect(batch.body["droppedEvents"]?["evaluatedConfig"] == 0)
            #expect(batch.body["metaContext"]?["sdkName"] == "swift-client-sdk")
            #expect(batch.body["metaContext"]?["appName"] == "EndToEndTests")

            let events = Dictionary(
                batch.evaluatedConfigEvents.compactMap { entry -> (String, JSONValue)? in
                    guard case .string(let key)? = entry["event"]?["key"] else { return nil }
                    return (key, entry)
                },
                uniquingKeysWith: { first, _ in first }
            )
            #expect(batch.evaluatedConfigEvents.count == 3)
            #expect(events.compactMapValues { $0["count"] } == ["dark-mode": 3, "greeting": 2, "missing": 1])

            let darkMode = try #require(events["dark-mode"]?["event"])
            #expect(darkMode["contextId"] == "user-1")
            #expect(darkMode["type"] == "boolean")
            #expect(darkMode["requestedType"] == "Bool")
            #expect(darkMode["defaultValue"] == ["value": "false"])
            #expect(darkMode["evaluatedValue"] == ["value": "true"])
            #expect(darkMode["evaluatedValueId"] == "dark-on")
            #expect(darkMode["usedDefault"] == false)
            #expect(darkMode["evaluationReason"] == "found-match")

            let greeting = try #require(events["greeting"]?["event"])
            #expect(greeting["requestedType"] == "String")
            #expect(greeting["evaluatedValue"] == ["value": "hello, pro"])
            #expect(greeting["evaluationReason"] == "found-match")

            let missing = try #require(events["missing"]?["event"])
            #expect(!missing.hasMember("type"))
            #expect(missing["requestedType"] == "Int")
            #expect(missing["defaultValue"] == ["value": "7"])
            #expect(!missing.hasMember("evaluatedValueId"))
            #expect(missing["usedDefault"] == true)
            #expect(missing["evaluationReason"] == "config-state-missing")

            let request = try #require(emulator.recordedRequests(path: "/client/telemetry/v1").first)
            #expect(request.headers["content-type"] == "application/json")
            // Every request, the stream or the polls and the telemetry, names the SDK: bot protection refuses
            // a missing User-Agent with a 403 that reads as a refused key.
            let agent = "swift-client-sdk/\(ConfigDirectorSDK.version) (Linux; \(ConfigDirectorSDK.architecture))"
            let requests = emulator.recordedRequests()
            #expect(Set(requests.map(\.path)).count == 2, "\(requests.map(\.path))")
            #expect(requests.allSatisfy { $0.headers["user-agent"] == agent }, "\(requests.map(\.headers))")
        }
    }

    @Test("telemetry sent to the emulator does not count the reads of an overridden key")
    func overriddenReadsAreNotCounted() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let e2e = try EndToEndClient(
                mode: .streaming, baseURL: emulator.baseURL, scale: 1,
                overrides: LocalOverrideOptions(isEnabled: true, readsLaunchArguments: false))
            defer { e2e.client.close() }
            await e2e.client.initialize(context: proUser)
            e2e.client.setOverride(false, for: "dark-mode")
            for _ in 0..<3 { #expect(e2e.client.value(for: "dark-mode", default: true) == false) }
            for _ in 0..<2 { _ = e2e.client.value(for: "greeting", default: "none") }

            e2e.client.close()
            #expect(await eventually(timeout: longestWait) { !emulator.telemetryBatches().isEmpty })
            let batch = try #require(emulator.telemetryBatches().first)
            let keys = batch.evaluatedConfigEvents.compactMap { entry -> String? in
                guard case .string(let key)? = entry["event"]?["key"] else { return nil }
                return key
            }
            #expect(keys == ["greeting"])
            #expect(batch.evaluatedConfigEvents.first?["count"] == 2)
        }
    }

    @Test("releasing the client reports the telemetry left")
    func releaseReportsTelemetry() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            var e2e: EndToEndClient? = try EndToEndClient(mode: .streaming, baseURL: emulator.baseURL, scale: 1)
            await e2e?.client.initialize(context: proUser)
            #expect(e2e?.client.value(for: "dark-mode", default: false) == true)

            e2e = nil

            #expect(await eventually(timeout: 3) { !emulator.telemetryBatches().isEmpty })
        }
    }

    @Test("kept values are served on a second start while the service cannot be reached", arguments: modes)
    func keptValuesWhileTheServiceIsDown(mode: ConnectionMode) async throws {
        let provider = InMemoryCachingProvider()
        let closedBaseURL = try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let first = try EndToEndClient(
                mode: mode,
                baseURL: emulator.baseURL,
                caching: CachingOptions(provider: provider)
            )
            defer { first.client.close() }
            await first.client.initialize(context: proUser)
            #expect(first.client.isReady)
            first.client.close()
            #expect(await eventually(timeout: longestWait) { provider.read() != nil })
            return emulator.baseURL
        }

        // Nothing listens on the stopped emulator's port any more.
        let second = try EndToEndClient(
            mode: mode,
            baseURL: closedBaseURL,
            timeout: 0.5,
            caching: CachingOptions(provider: provider)
        )
        defer { second.client.close() }
        let events = StreamCollector(second.client.events)
        defer { events.cancel() }

        await second.client.initialize(context: proUser)

        #expect(second.client.valueSource == .keptValues)
        #expect(!second.client.isReady)
        #expect(second.client.value(for: "dark-mode", default: false) == true)
        #expect(second.client.value(for: "greeting", default: "none") == "hello, pro")
        #expect(second.client.value(for: "max-items", default: 0) == 20)
        #expect(await events.wait { $0.contains { if case .configsUpdated = $0 { true } else { false } } })
        #expect(!events.all.contains { if case .ready = $0 { true } else { false } })
        #expect(second.logger.messages(at: .warn).contains { $0.contains("kept on the device") })
    }
}
