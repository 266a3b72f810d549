import ConfigEmulator
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import EmulatorTestSupport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// The HTTP transports of ConfigTransport against the emulator over loopback (issue 4).
@Suite("Transports against the emulator", .timeLimit(.minutes(3)))
struct TransportEndToEndTests {
    private static let streamingPath = "/client/sse/v1"
    private static let pollingPath = "/client/polling/v1"

    private func streamingTransport(
        _ emulator: ConfigEmulator,
        sdkKey: String = emulatorSDKKey,
        logger: RecordingLogger,
        clock: any TransportClock = SystemTransportClock(),
        recorder: TransportEventRecorder
    ) -> any Transport {
        let configuration = transportConfiguration(emulator: emulator, sdkKey: sdkKey, logger: logger, clock: clock)
        return HTTPTransportFactory(mode: .streaming, configuration: configuration)
            .makeTransport(handler: recorder.handler)
    }

    @Test("a stream opens with the full set of the context, then carries a delta of each change for it")
    func fullSetThenDeltas() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let logger = RecordingLogger()
            let recorder = TransportEventRecorder(timeout: longestWait)
            let transport = streamingTransport(emulator, logger: logger, recorder: recorder)
            defer { transport.close() }

            #expect(await connectAndAwaitOutcome(transport, context: proUser, recorder: recorder) == .open)
            #expect(await recorder.waitForSets { $0.count == 1 })
            let full = try #require(recorder.configSets.first)
            #expect(full.kind == .full)
            #expect(Set(full.configs.keys) == ["dark-mode", "greeting", "max-items"])
            #expect(full.configs["dark-mode"]?.value == "true")
            #expect(full.configs["dark-mode"]?.valueID == "dark-on")
            #expect(full.configs["greeting"]?.value == "hello, pro")
            #expect(full.configs["max-items"]?.value == "20")

            emulator.setValue(25, forKey: "max-items")
            #expect(await recorder.waitForSets { $0.count == 2 })
            // The pro plan's rule wins, so this change is not one for this context and sends nothing.
            emulator.setValue("hi", forKey: "greeting")
            emulator.setConfig(EmulatedConfig(key: "banner", type: .string, value: "sale"))
            #expect(await recorder.waitForSets { $0.count == 3 })

            let deltas = Array(recorder.configSets.dropFirst())
            #expect(deltas.map(\.kind) == [.delta, .delta])
            #expect(deltas.map { $0.configs.keys.sorted() } == [["max-items"], ["banner"]])
            #expect(deltas.first?.configs["max-items"]?.value == "25")
            #expect(deltas.last?.configs["banner"]?.value == "sale")
            #expect(recorder.states == [.open])

            let requests = emulator.recordedRequests(path: Self.streamingPath)
            try #require(requests.count == 1)
            #expect(requests[0].method == "POST")
            #expect(requests[0].headers["accept"] == "text/event-stream")
            #expect(requests[0].headers["content-type"] == "application/json")
            #expect(requests[0].headers["cache-control"] == "no-store")
            #expect(requests[0].headers["last-event-id"] == nil)
            let body = try ConnectionRequestBody(requests[0])
            #expect(body.clientSdkKey == emulatorSDKKey)
            #expect(body.givenContext == proUser)
            #expect(body.lastUpdateTimestamp == nil)
        }
    }

    @Test("after the server drops the stream, the transport reconnects with Last-Event-ID and gets only what it missed")
    func reconnectsWithLastEventID() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let logger = RecordingLogger()
            let recorder = TransportEventRecorder(timeout: longestWait)
            let clock = ScaledClock(scale: 0.05)
            let transport = streamingTransport(emulator, logger: logger, clock: clock, recorder: recorder)
            defer { transport.close() }

            #expect(await connectAndAwaitOutcome(transport, context: proUser, recorder: recorder) == .open)
            #expect(await recorder.waitForSets { $0.count == 1 })
            emulator.setValue(25, forKey: "max-items")
            #expect(await recorder.waitForSets { $0.count == 2 })
            let lastEventID = try await EmulatorAdmin.lastEventID(of: emulator)

            // Changed while the client is away: the reconnect must bring exactly this change.
            recorder.onReconnecting { _ in emulator.setValue(30, forKey: "max-items") }
            emulator.inject(.dropStreams)
            #expect(await recorder.waitForSets { $0.count == 3 })

            let requests = emulator.recordedRequests(path: Self.streamingPath)
            try #require(requests.count == 2)
            #expect(requests[0].headers["last-event-id"] == nil)
            #expect(requests[1].headers["last-event-id"] == lastEventID)
            let missed = try #require(recorder.configSets.last)
            #expect(missed.kind == .delta)
            #expect(missed.configs.keys.sorted() == ["max-items"])
            #expect(missed.configs["max-items"]?.value == "30")

            let reconnect = try #require(recorder.reconnects.first)
            #expect(recorder.reconnects.count == 1)
            #expect(reconnect.attempt == 1)
            #expect((1.0...2.0).contains(reconnect.delay))
            #expect(clock.requestedDelays.contains(reconnect.delay))
            // The stream dropped without a status: a network error or the end of the stream, as the socket tells it.
            let failure = try #require(recorder.failures.first)
            #expect(failure.statusCode == nil)
            #expect(
                recorder.states == [.open, .reconnecting(attempt: 1, delay: reconnect.delay, failure: failure), .open])
        }
    }

    @Test("401 is fatal: .failed is reported once with the status, the transport logs it at debug, nothing is retried")
    func unauthorizedIsFatal() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let logger = RecordingLogger()
            let recorder = TransportEventRecorder(timeout: longestWait)
            // Scaled so that a wrongly scheduled retry (attempt 1 waits 1 to 2 s) would not hold the test up.
            let clock = ScaledClock(scale: 0.1)
            let transport = streamingTransport(
                emulator,
                sdkKey: "not-the-key",
                logger: logger,
                clock: clock,
                recorder: recorder
            )
            defer { transport.close() }

            guard
                case .failed(.connectionFailed(_, let status))? = await connectAndAwaitOutcome(
                    transport,
                    context: proUser,
                    recorder: recorder
                )
            else {
                Issue.record("the transport reported \(recorder.states), not a failure")
                return
            }
            #expect(status == 401)
            // The second connect's outcome comes only once the refused connection has ended: a retry of it
            // would have shown before, as a request, a reconnect or a warning.
            guard case .failed? = await connectAndAwaitOutcome(transport, context: proUser, recorder: recorder) else {
                Issue.record("the second connect reported \(recorder.states), not a failure")
                return
            }
            #expect(emulator.recordedRequests(path: Self.streamingPath).count == 2, "one request per connect")
            #expect(recorder.reconnects.isEmpty)
            #expect(recorder.configSets.isEmpty)
            #expect(recorder.states.count == 2)
            // The owner (the client) logs the one error; the transport says why at debug.
            #expect(logger.messages(at: .error).isEmpty)
            #expect(logger.messages(at: .warn).isEmpty)
            #expect(logger.messages(at: .debug).contains { $0.contains("refused with status 401") })
            #expect(!logger.messages.contains { $0.contains("not-the-key") })
        }
    }

    @Test("503 with Retry-After: 2 waits at least 2 s before the next attempt")
    func retryAfterIsHonoured() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let logger = RecordingLogger()
            let recorder = TransportEventRecorder(timeout: longestWait)
            let clock = ScaledClock(scale: 1)
            let transport = streamingTransport(emulator, logger: logger, clock: clock, recorder: recorder)
            defer { transport.close() }
            emulator.inject(.status(503, path: Self.streamingPath, count: 1, retryAfter: "2"))

            // A transient status is reported as a reconnect, not as a failure; the stream opens after it.
            #expect(await connectAndAwaitOutcome(transport, context: proUser, recorder: recorder) == .open)
            #expect(await recorder.waitForSets { $0.count == 1 })

            let reconnect = try #require(recorder.reconnects.first)
            #expect(recorder.reconnects.count == 1)
            #expect(reconnect.attempt == 1)
            #expect(reconnect.delay >= 2)
            #expect(clock.requestedDelays.contains(reconnect.delay))
            let requests = emulator.recordedRequests(path: Self.streamingPath)
            try #require(requests.count == 2)
            let waited = requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt)
            #expect(waited >= 2)
            print("Retry-After: 2 → requested delay \(reconnect.delay) s, measured \(String(format: "%.3f", waited)) s")
        }
    }

    @Test(
        "reconnect attempts 1 to 4 wait delays in their bands, measured in real time",
        .timeLimit(.minutes(1))
    )
    func reconnectDelaysInRealTime() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let logger = RecordingLogger()
            let recorder = TransportEventRecorder(timeout: longestWait)
            let transport = streamingTransport(emulator, logger: logger, recorder: recorder)
            defer { transport.close() }
            emulator.inject(.status(503, path: Self.streamingPath, count: 4, retryAfter: nil))

            transport.connect(context: proUser, reason: .initialization)
            // Attempts 1 to 4 wait at most 2 + 4 + 8 + 16 = 30 s.
            #expect(await recorder.waitForSets(timeout: 40) { $0.count == 1 })

            let reconnects = recorder.reconnects
            #expect(reconnects.map(\.attempt) == [1, 2, 3, 4])
            let requests = emulator.recordedRequests(path: Self.streamingPath)
            try #require(requests.count == 5 && reconnects.count == 4)
            var report: [String] = []
            for (index, reconnect) in reconnects.enumerated() {
                let ceiling = Double(1 << reconnect.attempt)
                #expect((ceiling / 2...ceiling).contains(reconnect.delay))
                let measured = requests[index + 1].receivedAt.timeIntervalSince(requests[index].receivedAt)
                #expect(measured >= reconnect.delay)
                report.append(
                    "attempt \(reconnect.attempt): chose \(String(format: "%.3f", reconnect.delay)) s, "
                        + "measured \(String(format: "%.3f", measured)) s"
                )
            }
            // Warned once for the outage, not once per attempt.
            #expect(logger.messages(at: .warn).filter { $0.contains("reconnecting with backoff") }.count == 1)
            print("Reconnect delays: " + report.joined(separator: "; "))
        }
    }

    @Test("a malformed event is skipped and the stream goes on")
    func malformedEventIsSkipped() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let logger = RecordingLogger()
            let recorder = TransportEventRecorder(timeout: longestWait)
            let transport = streamingTransport(emulator, logger: logger, recorder: recorder)
            defer { transport.close() }

            #expect(await connectAndAwaitOutcome(transport, context: proUser, recorder: recorder) == .open)
            #expect(await recorder.waitForSets { $0.count == 1 })
            emulator.inject(.malformedEvent)
            emulator.setValue(25, forKey: "max-items")
            #expect(await recorder.waitForSets { $0.count == 2 })

            #expect(recorder.configSets.last?.configs["max-items"]?.value == "25")
            #expect(recorder.states == [.open])
            #expect(emulator.recordedRequests(path: Self.streamingPath).count == 1)
            #expect(logger.messages(at: .warn).contains { $0.contains("does not decode") })
        }
    }

    @Test("an event written one byte at a time arrives whole, multi-byte characters included")
    func eventWrittenByteByByteArrivesWhole() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let logger = RecordingLogger()
            let recorder = TransportEventRecorder(timeout: longestWait)
            let transport = streamingTransport(emulator, logger: logger, recorder: recorder)
            defer { transport.close() }

            #expect(await connectAndAwaitOutcome(transport, context: proUser, recorder: recorder) == .open)
            #expect(await recorder.waitForSets { $0.count == 1 })
            let motto = "Grüße, 世界 🌍\r\nzweite Zeile"
            emulator.inject(.byteByByte)
            emulator.setConfig(EmulatedConfig(key: "motto", type: .string, value: .string(motto)))
            #expect(await recorder.waitForSets { $0.count == 2 })

            let delta = try #require(recorder.configSets.last)
            #expect(delta.kind == .delta)
            #expect(delta.configs.keys.sorted() == ["motto"])
            #expect(delta.configs["motto"]?.value == motto)
            #expect(recorder.states == [.open])
            #expect(emulator.recordedRequests(path: Self.streamingPath).count == 1)
        }
    }

    @Test("polling fetches at connect, then picks up a change at the next interval")
    func pollingPicksUpAChange() async throws {
        try await withEmulator(configs: servedConfigs, sdkKey: emulatorSDKKey) { emulator in
            let logger = RecordingLogger()
            let recorder = TransportEventRecorder(timeout: longestWait)
            let clock = ScaledClock(scale: 0.01)
            let configuration = transportConfiguration(
                emulator: emulator,
                logger: logger,
                clock: clock,
                pollingInterval: 1
            )
            let transport = HTTPTransportFactory(mode: .polling, configuration: configuration)
                .makeTransport(handler: recorder.handler)
            defer { transport.close() }
            // The client warns of an interval below the floor, not the transport.
            #expect(logger.messages(at: .warn).isEmpty)

            #expect(await connectAndAwaitOutcome(transport, context: proUser, recorder: recorder) == .open)
            #expect(await recorder.waitForSets { $0.count == 1 })
            #expect(recorder.configSets.first?.configs["max-items"]?.value == "20")

            emulator.setValue(25, forKey: "max-items")
            #expect(await recorder.waitForSets { $0.last?.configs["max-items"]?.value == "25" })

            // The interval asked for (1 s) was raised to the 30 s floor.
            #expect(clock.requestedDelays.contains(30))
            #expect(!clock.requestedDelays.contains(1))
            let bodies = try emulator.recordedRequests(path: Self.pollingPath).map(ConnectionRequestBody.init)
            try #require(bodies.count >= 2)
            #expect(bodies[0].lastUpdateTimestamp == nil)
            #expect(bodies[1].lastUpdateTimestamp == recorder.configSets[0].timestamp)
            #expect(bodies.allSatisfy { $0.givenContext == proUser && $0.clientSdkKey == emulatorSDKKey })
            #expect(recorder.configSets.allSatisfy { $0.kind == .full })
        }
    }
}
