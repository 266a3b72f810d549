@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("HTTP transport factory", .timeLimit(.minutes(1)))
struct HTTPTransportFactoryTests {
    @Test("makes a streaming or a polling transport, each with its own HTTP layer")
    func modes() async throws {
        let clock = ManualClock()
        let made = Protected<[FakeHTTPClient]>([])
        let configuration = Fixtures.configuration(clock: clock)
        for mode in [HTTPTransportFactory.Mode.streaming, .polling] {
            let factory = HTTPTransportFactory(mode: mode, configuration: configuration) {
                let client = FakeHTTPClient(fallback: .status(204))
                made.withLock { $0.append(client) }
                return client
            }
            #expect(factory.mode == mode)
            let recorder = TransportEventRecorder()
            let transport = factory.makeTransport(handler: recorder.handler)
            // A 204 stops a stream; to polling it is a success that changes nothing.
            let outcome = await connectAndAwaitOutcome(transport, recorder: recorder)
            #expect(outcome == (mode == .streaming ? .stopped : .open))
            transport.close()
        }
        let clients = made.current
        #expect(clients.count == 2)
        #expect(clients.first?.requests.first?.url.path == "/cd/client/sse/v1")
        #expect(clients.last?.requests.first?.url.path == "/cd/client/polling/v1")
        #expect(clients.allSatisfy { $0.shutdownCount == 1 })
    }

    @Test(
        "a fatal refusal is logged by either transport at debug only, never at error: its owner logs the error",
        arguments: [HTTPTransportFactory.Mode.streaming, .polling]
    )
    func fatalLoggedAtDebug(mode: HTTPTransportFactory.Mode) async throws {
        let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
        let recorder = TransportEventRecorder()
        let http = FakeHTTPClient()
        http.enqueue(.status(403, body: "forbidden"))
        let transport = Fixtures.makeTransport(
            mode,
            configuration: Fixtures.configuration(clock: ManualClock(), logger: logger),
            http: http,
            recorder: recorder
        )
        defer { transport.close() }
        let outcome = await connectAndAwaitOutcome(transport, recorder: recorder)
        #expect(outcome == .failed(.connectionFailed(message: "forbidden", statusCode: 403)))
        #expect(logger.messages(at: .error).isEmpty)
        #expect(logger.messages(at: .warn).isEmpty)
        #expect(
            logger.messages(at: .debug).contains {
                $0.contains("refused with status 403") && $0.contains("unrecoverable")
            }
        )
    }

    @Test("never warns about the polling interval (the client does), and polls at least every 30 s")
    func noWarning() {
        let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
        let clock = ManualClock()
        for (mode, interval) in [(HTTPTransportFactory.Mode.polling, 30.0), (.polling, 5), (.streaming, 1)] {
            _ = HTTPTransportFactory(
                mode: mode,
                configuration: Fixtures.configuration(clock: clock, logger: logger, pollingInterval: interval)
            )
        }
        #expect(logger.entries.isEmpty)
        #expect(Fixtures.configuration(clock: clock, pollingInterval: 1).effectivePollingInterval == 30)
        #expect(Fixtures.configuration(clock: clock, pollingInterval: .nan).effectivePollingInterval == 60)
    }
}
