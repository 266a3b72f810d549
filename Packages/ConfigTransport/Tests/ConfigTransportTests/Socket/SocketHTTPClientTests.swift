#if canImport(Glibc)  // The socket client is compiled for Linux alone.
@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) @testable import ConfigTransport
import Foundation
import Testing
import TestSupport
import ModelTestSupport

/// The socket client against a loopback peer: framing, statuses, failures, timeouts, cancel and shutdown.
@Suite("Socket HTTP client", .timeLimit(.minutes(1)))
struct SocketHTTPClientTests {
    /// How long a server that expects the client to close waits for it. Long, because other suites
    /// block the shared cooperative threads for seconds at a time (blocking socket reads in async
    /// tests), and a test that gets its turn late must still be the one that closes.
    private static let peerPatience: Double = 30

    private static func request(_ url: URL, timeout: Double = 10, body: String = "hello") -> HTTPRequest {
        HTTPRequest(url: url, headers: ["X-Test": "yes"], body: Data(body.utf8), timeout: timeout)
    }

    /// Sends the standard request to `server` with a client of its own, and reads the exchange to its end.
    private static func exchange(with server: LoopbackServer) async -> ExchangeOutcome {
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug))
        defer { client.shutdown() }
        return await ExchangeOutcome.collect(client.start(request(server.url)))
    }

    @Test("writes the request, then decodes a chunked body split in awkward places without waiting for close")
    func chunked() async throws {
        let received = Protected<(head: String, body: Data)?>(nil)
        let server = try LoopbackServer { connection in
            received.set(connection.readRequest())
            connection.sendSlowly([
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chu", "nked\r\nX-A: 1\r\nx-a: 2\r\n\r",
                "\n5\r\nhel", "lo\r", "\n3;ext=1\r\n wo\r", "\n0\r\n", "Trailer: x\r\n\r\n",
            ])
            connection.holdUntilStopped()
        }
        defer { server.stop() }
        let outcome = await Self.exchange(with: server)
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.statusCode) == [200])
        #expect(outcome.heads.first?.value(forHeader: "x-a") == "1, 2")
        #expect(outcome.text == "hello wo")
        let request = try #require(received.current)
        let lines = request.head.components(separatedBy: "\r\n")
        #expect(lines.first == "POST /path?q=1 HTTP/1.1")
        #expect(lines.contains("Host: 127.0.0.1:\(server.port)"))
        #expect(lines.contains("Content-Length: 5"))
        #expect(lines.contains("Connection: close"))
        #expect(lines.contains("X-Test: yes"))
        #expect(request.body == Data("hello".utf8))
    }

    @Test("ends a Content-Length body at its length while the connection stays open")
    func contentLength() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.sendSlowly(["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01234", "56789"])
            connection.holdUntilStopped()
        }
        defer { server.stop() }
        let outcome = await Self.exchange(with: server)
        #expect(outcome.error == nil)
        #expect(outcome.text == "0123456789")
    }

    @Test("reads a body without length until the server closes")
    func untilClose() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.sendSlowly(["HTTP/1.0 200 OK\r\n\r\nabc", "def"])
        }
        defer { server.stop() }
        let outcome = await Self.exchange(with: server)
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.statusCode) == [200])
        #expect(outcome.text == "abcdef")
    }

    @Test("hands on a redirect without following it")
    func redirect() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 307 Temporary Redirect\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n")
            connection.holdUntilStopped()
        }
        defer { server.stop() }
        let outcome = await Self.exchange(with: server)
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.statusCode) == [307])
        #expect(outcome.heads.first?.value(forHeader: "Location") == "/elsewhere")
        #expect(server.acceptedCount == 1)
    }

    @Test("hands on a 401 head and its body")
    func unauthorized() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\ndenied")
        }
        defer { server.stop() }
        let outcome = await Self.exchange(with: server)
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.statusCode) == [401])
        #expect(outcome.text == "denied")
    }

    @Test("skips an interim 100 Continue and reaches localhost whichever address family answers")
    func interimAndLocalhost() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")
            connection.holdUntilStopped()
        }
        defer { server.stop() }
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug))
        defer { client.shutdown() }
        let url = URL(string: "http://localhost:\(server.port)/")!
        let outcome = await ExchangeOutcome.collect(client.start(Self.request(url)))
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.statusCode) == [204])
        #expect(outcome.body.isEmpty)
    }

    @Test("reaches an IPv6 loopback address")
    func ipv6() async throws {
        let received = Protected<String?>(nil)
        let server = try LoopbackServer(ipv6: true) { connection in
            received.set(connection.readRequest()?.head)
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nv6")
        }
        defer { server.stop() }
        let outcome = await Self.exchange(with: server)
        #expect(outcome.error == nil)
        #expect(outcome.text == "v6")
        #expect(received.current?.contains("\r\nHost: [::1]:\(server.port)\r\n") == true)
    }

    @Test("fails with cannotConnectToHost when the connection is refused")
    func refused() async throws {
        let server = try LoopbackServer(refusing: true) { _ in }
        defer { server.stop() }
        let url = server.url
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug))
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(client.start(Self.request(url)))
        #expect(outcome.urlErrorCode == .cannotConnectToHost)
        #expect(outcome.heads.isEmpty)
    }

    @Test("fails with unsupportedURL for a scheme but http and https")
    func unsupportedScheme() async {
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug))
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(client.start(Self.request(URL(string: "ftp://127.0.0.1:1/")!)))
        #expect(outcome.urlErrorCode == .unsupportedURL)
    }

    @Test("fails with badServerResponse on a response that is not HTTP")
    func garbage() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("SSH-2.0-OpenSSH\r\n\r\n")
        }
        defer { server.stop() }
        let outcome = await Self.exchange(with: server)
        #expect(outcome.urlErrorCode == .badServerResponse)
    }

    @Test("fails with networkConnectionLost when the body is cut short")
    func truncated() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
        }
        defer { server.stop() }
        let outcome = await Self.exchange(with: server)
        #expect(outcome.urlErrorCode == .networkConnectionLost)
        #expect(outcome.text == "short")
    }

    @Test("times out with timedOut when the server stays silent longer than the request's timeout")
    func idleTimeout() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            // Each byte restarts the timeout: the second event comes after the timeout but within it of the first.
            for piece in ["HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n", "data: 1\n\n", "data: 2\n\n"] {
                Thread.sleep(forTimeInterval: 0.2)
                connection.send(piece)
            }
            connection.holdUntilStopped()
        }
        defer { server.stop() }
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug))
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(client.start(Self.request(server.url, timeout: 0.35)))
        #expect(outcome.urlErrorCode == .timedOut)
        #expect(outcome.heads.map(\.statusCode) == [200])
        #expect(outcome.text == "data: 1\n\ndata: 2\n\n")
    }

    @Test("cancel mid-stream ends the parts promptly, closes the connection and ends the thread")
    func cancelMidStream() async throws {
        let peerClosed = Protected<Bool?>(nil)
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n")
            // Patient, so that a test task that waits for a turn on a busy machine still cancels first.
            peerClosed.set(connection.waitForPeerClose(seconds: Self.peerPatience))
        }
        defer { server.stop() }
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug))
        defer { client.shutdown() }
        let exchange = client.start(Self.request(server.url, timeout: 60))
        let outcome = await ExchangeOutcome.collect(exchange) { part, _ in
            if case .body = part { exchange.cancel() }
        }
        #expect(outcome.urlErrorCode == .cancelled)
        #expect(outcome.text == "first")
        #expect(await eventually(timeout: Self.peerPatience) { peerClosed.current == true })
        #expect(await eventually { client.runningExchangeCount == 0 })
    }

    @Test("dropping the parts stream cancels the exchange")
    func droppedStream() async throws {
        let peerClosed = Protected<Bool?>(nil)
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 200 OK\r\n\r\n")
            peerClosed.set(connection.waitForPeerClose(seconds: Self.peerPatience))
        }
        defer { server.stop() }
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug))
        defer { client.shutdown() }
        let reader = Task {
            for try await part in client.start(Self.request(server.url, timeout: 60)).parts {
                if case .head = part { break }
            }
        }
        try await reader.value
        #expect(await eventually(timeout: Self.peerPatience) { peerClosed.current == true })
        #expect(await eventually { client.runningExchangeCount == 0 })
    }

    @Test("shutdown ends every exchange with CancellationError and refuses later ones")
    func shutdown() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            connection.waitForPeerClose(seconds: Self.peerPatience)
        }
        defer { server.stop() }
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug))
        // No idle timeout: under load, the accepts alone may take longer than the default 10 s.
        let exchanges = [
            client.start(Self.request(server.url, timeout: .infinity)),
            client.start(Self.request(server.url, timeout: .infinity)),
        ]
        async let first = ExchangeOutcome.collect(exchanges[0])
        async let second = ExchangeOutcome.collect(exchanges[1])
        #expect(await eventually { server.acceptedCount == 2 })
        try await Task.sleep(nanoseconds: 100_000_000)
        client.shutdown()
        let outcomes = await [first, second]
        for outcome in outcomes {
            #expect(outcome.error is CancellationError)
        }
        #expect(await eventually { client.runningExchangeCount == 0 })
        let late = await ExchangeOutcome.collect(client.start(Self.request(server.url)))
        #expect(late.error is CancellationError)
        #expect(server.acceptedCount == 2)
    }
}
#endif
