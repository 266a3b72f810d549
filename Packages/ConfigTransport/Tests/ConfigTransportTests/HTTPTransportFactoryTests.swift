@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import Testing

@Suite("HTTP transport factory")
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
            let transport = factory.makeTransport { _ in }
            try await transport.connect(context: nil, timeout: 5)
            transport.close()
        }
        let clients = made.current
        #expect(clients.count == 2)
        #expect(clients.first?.requests.first?.url.path == "/cd/client/sse/v1")
        #expect(clients.last?.requests.first?.url.path == "/cd/client/polling/v1")
        #expect(clients.allSatisfy { $0.shutdownCount == 1 })
    }

    @Test("does not warn for an interval at or above 30 s, nor in streaming mode")
    func noWarning() {
        let logger = RecordingLogger()
        let clock = ManualClock()
        _ = HTTPTransportFactory(
            mode: .polling,
            configuration: Fixtures.configuration(clock: clock, logger: logger, pollingInterval: 30)
        )
        _ = HTTPTransportFactory(
            mode: .streaming,
            configuration: Fixtures.configuration(clock: clock, logger: logger, pollingInterval: 1)
        )
        #expect(logger.entries.isEmpty)
        #expect(Fixtures.configuration(clock: clock, pollingInterval: 1).effectivePollingInterval == 30)
        #expect(Fixtures.configuration(clock: clock, pollingInterval: .nan).effectivePollingInterval == 60)
    }
}
