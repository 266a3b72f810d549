@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import Testing

/// Which HTTP layer a request goes to, and shutting both down.
@Suite("Platform HTTP client")
struct PlatformHTTPClientTests {
    @Test("sends http to the socket client where URLSession is corelibs', and https to URLSession everywhere")
    func routing() {
        #if canImport(FoundationNetworking) && canImport(Glibc)
        #expect(PlatformHTTPClient.usesSocket(for: URL(string: "http://127.0.0.1:8080/client/sse/v1")!))
        #expect(PlatformHTTPClient.usesSocket(for: URL(string: "HTTP://localhost/")!))
        #else
        #expect(!PlatformHTTPClient.usesSocket(for: URL(string: "http://127.0.0.1:8080/client/sse/v1")!))
        #endif
        #expect(!PlatformHTTPClient.usesSocket(for: URL(string: "https://example.com/client/sse/v1")!))
    }

    #if canImport(Glibc) || canImport(Darwin)
    @Test("reaches a loopback peer over http, and refuses every request after shutdown")
    func roundTripThenShutdown() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }
        let client = PlatformHTTPClient(logger: QuietLogger())
        let request = HTTPRequest(url: server.url, headers: [:], body: Data("{}".utf8), timeout: 10)
        var body = Data()
        for try await part in client.start(request).parts {
            if case .body(let chunk) = part { body.append(chunk) }
        }
        #expect(body == Data("ok".utf8))
        client.shutdown()
        for url in [server.url, URL(string: "https://127.0.0.1:1/")!] {
            let late = HTTPRequest(url: url, headers: [:], body: Data(), timeout: 10)
            await #expect(throws: CancellationError.self) {
                for try await _ in client.start(late).parts {}
            }
        }
        #expect(server.acceptedCount == 1)
    }
    #endif
}

/// A logger that keeps nothing.
private struct QuietLogger: ConfigDirectorLogger {
    let level = ConfigDirectorLogLevel.off

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {}
}
