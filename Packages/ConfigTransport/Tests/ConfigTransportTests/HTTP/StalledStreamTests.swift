#if canImport(Glibc)  // The socket client is compiled for Linux alone.
@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) @testable import ConfigTransport
import Foundation
import Testing
import TestSupport
import ModelTestSupport
@_spi(Testing) import TransportTestSupport

/// Servers that hold a stream without serving it, on loopback, through the socket client and the streaming
/// transport with a manual clock (issue 25, items 1 to 3): each one ends the attempt and is retried.
@Suite("Streams that stall or are not streams, on loopback", .timeLimit(.minutes(1)))
struct StalledStreamTests {
    private let clock = ManualClock()
    private let recorder = TransportEventRecorder()
    private let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])

    private static let streamHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"

    /// A streaming transport over the socket client to `server`, connected.
    private func connect(to server: LoopbackServer) -> any Transport {
        var configuration = Fixtures.configuration(clock: clock, logger: logger)
        configuration.endpoint = ServiceEndpoint(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let http = SocketHTTPClient(logger: logger)
        let transport = HTTPTransportFactory(mode: .streaming, configuration: configuration, httpClient: { http })
            .makeTransport(handler: recorder.handler)
        transport.connect(context: nil, reason: .initialization)
        return transport
    }

    @Test("a server that accepts and never answers is left after 30 s, and the connection is closed")
    func silentServer() async throws {
        let closedByClient = Protected(false)
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            closedByClient.set(connection.waitForPeerClose(seconds: 20))
        }
        defer { server.stop() }
        let transport = connect(to: server)
        defer { transport.close() }
        #expect(await eventually(timeout: 20) { server.acceptedCount == 1 && clock.sleeperCount == 1 })
        #expect(clock.requestedDelays == [30])
        clock.advance(by: 30)
        #expect(await eventually(timeout: 20) { recorder.reconnects.count == 1 })
        #expect(await eventually(timeout: 20) { closedByClient.current })
        #expect(logger.messages(at: .warn).contains { $0.contains("no response headers within 30.0 s") })
    }

    @Test("a server that sends the headers and then nothing is left 45 s after them")
    func headersThenNothing() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send(Self.streamHead)
            connection.waitForPeerClose(seconds: 20)
        }
        defer { server.stop() }
        let transport = connect(to: server)
        defer { transport.close() }
        #expect(await eventually(timeout: 20) { recorder.states == [.open] })
        #expect(await eventually(timeout: 20) { clock.requestedDelays.last == 45 && clock.sleeperCount == 1 })
        clock.advance(by: 45)
        #expect(await eventually(timeout: 20) { recorder.reconnects.count == 1 })
        #expect(logger.messages(at: .warn).contains { $0.contains("no data within 45.0 s") })
    }

    @Test("a captive portal's page held open ends the attempt at once, without waiting on the clock")
    func captivePortal() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><title>Wi-Fi login</title>")
            connection.waitForPeerClose(seconds: 20)
        }
        defer { server.stop() }
        let transport = connect(to: server)
        defer { transport.close() }
        #expect(await eventually(timeout: 20) { recorder.reconnects.count == 1 })
        #expect(recorder.states.count == 1)
        #expect(recorder.reconnects.first?.delay == 1.5)
        #expect(recorder.failures.map(\.statusCode) == [200])
        #expect(logger.messages(at: .warn).contains { $0.contains("'text/html', not text/event-stream") })
        #expect(!logger.mentions("Wi-Fi login"))
    }

    @Test("heartbeat frames between the sets are skipped: the set before them stays the last one handed on")
    func heartbeatFrames() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send(Self.streamHead)
            connection.send(Fixtures.event(Fixtures.fullSetJSON))
            connection.send("event: heartbeat\ndata: {}\n\nevent: ping\ndata: {\"ts\": 1733100000}\n\n")
            connection.send(Fixtures.event(Fixtures.deltaSetJSON))
            connection.waitForPeerClose(seconds: 20)
        }
        defer { server.stop() }
        let transport = connect(to: server)
        defer { transport.close() }
        #expect(await eventually(timeout: 20) { recorder.configSets.count == 2 })
        #expect(recorder.configSets.map(\.kind) == [.full, .delta])
        #expect(recorder.reconnects.isEmpty)
        #expect(logger.messages(at: .warn).isEmpty)
    }
}
#endif
