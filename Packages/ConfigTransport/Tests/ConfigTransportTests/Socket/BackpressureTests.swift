#if canImport(Glibc)  // The socket client is compiled for Linux alone.
@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) @testable import ConfigTransport
import Foundation
import Testing
import TestSupport
import ModelTestSupport
@_spi(Testing) import TransportTestSupport

/// A hostile stream on loopback: the connection is read only as fast as its reader consumes, and a line
/// above the limit ends the connection without reading the rest (issue 18, item 1).
@Suite("Backpressure between the socket and the parser", .timeLimit(.minutes(1)))
struct BackpressureTests {
    /// What a flooding server sends: far more than any bound the client keeps.
    private static let floodSize = 64 * 1024 * 1024
    /// The most the server may get into the client: the client's buffer, its socket's receive buffer
    /// and the server's send buffer (loopback autotuning takes each to a few MB), with room to spare.
    private static let boundOfBytesAccepted = 16 * 1024 * 1024

    private static let head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n".utf8)

    /// Waits, up to `seconds` of real time, for `condition`.
    private static func wait(seconds: Double, until condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return condition()
    }

    @Test("a reader that stops taking parts stops the reading of the socket", .timeLimit(.minutes(1)))
    func readerThatStopsStopsTheSocket() async throws {
        let accepted = Protected<Int?>(nil)
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send(Self.head)
            let comments = Array(repeating: Array(": keep-alive\n".utf8), count: 5_000).flatMap { $0 }
            accepted.set(connection.flood(comments, total: Self.floodSize))
        }
        defer { server.stop() }
        let client = SocketHTTPClient(logger: RecordingLogger(forbidding: [Fixtures.sdkKey]))
        defer { client.shutdown() }
        let exchange = client.start(HTTPRequest(url: server.url, headers: [:], body: Data(), timeout: 60))
        var iterator = exchange.parts.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first == .head(HTTPResponseHead(statusCode: 200, headers: ["Content-Type": "text/event-stream"])))
        // The reader takes nothing more: the server stalls once the bounded buffers are full.
        #expect(await Self.wait(seconds: 30) { accepted.current != nil })
        let sent = try #require(accepted.current)
        #expect(sent < Self.boundOfBytesAccepted, "the server got \(sent) bytes into a client that read none")
        exchange.cancel()
        #expect(await Self.wait(seconds: 10) { client.runningExchangeCount == 0 })
    }

    @Test(
        "the streaming transport ends a connection at a line above the limit, without reading the rest",
        .timeLimit(.minutes(1))
    )
    func oversizedLineEndsTheConnection() async throws {
        let accepted = Protected<Int?>(nil)
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send(Self.head)
            connection.send(Array("data: ".utf8))
            let line = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            accepted.set(connection.flood(line, total: Self.floodSize))
        }
        defer { server.stop() }
        let clock = ManualClock()
        let recorder = TransportEventRecorder()
        let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
        var configuration = Fixtures.configuration(clock: clock, logger: logger, maxEventSize: 256 * 1024)
        configuration.endpoint = ServiceEndpoint(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let http = SocketHTTPClient(logger: RecordingLogger(forbidding: [Fixtures.sdkKey]))
        let transport = HTTPTransportFactory(mode: .streaming, configuration: configuration, httpClient: { http })
            .makeTransport(handler: recorder.handler)
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await Self.wait(seconds: 30) { recorder.reconnects.count == 1 })
        #expect(await Self.wait(seconds: 30) { accepted.current != nil })
        let sent = try #require(accepted.current)
        #expect(sent < Self.boundOfBytesAccepted, "the server got \(sent) bytes in before the refusal")
        #expect(logger.messages(at: .warn).contains { $0.contains("larger than 262144 bytes") })
        #expect(recorder.configSets.isEmpty)
    }
}
#endif
