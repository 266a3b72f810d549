@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import Testing

@_spi(Internal) @_spi(Testing) @testable import ConfigTransport

/// Which HTTP layer a request goes to, and shutting both down.
@Suite("Platform HTTP client", .timeLimit(.minutes(1)))
struct PlatformHTTPClientTests {
    @Test("sends http, and https when OpenSSL loads, to the socket client where URLSession is corelibs'")
    func routing() throws {
        let http = URL(string: "http://127.0.0.1:8080/client/sse/v1")!
        let https = URL(string: "https://example.com/client/sse/v1")!
        #if canImport(FoundationNetworking) && canImport(Glibc)
        #expect(PlatformHTTPClient.usesSocket(for: http))
        #expect(PlatformHTTPClient.usesSocket(for: URL(string: "HTTP://localhost/")!))
        // OpenSSL is on every Linux that runs these tests (Python's `ssl` needs it too).
        _ = try #require(try? OpenSSLLibrary.shared.get())
        #expect(PlatformHTTPClient.usesSocket(for: https))
        #expect(PlatformHTTPClient.usesSocket(for: URL(string: "HTTPS://localhost/")!))
        #else
        #expect(!PlatformHTTPClient.usesSocket(for: http))
        #expect(!PlatformHTTPClient.usesSocket(for: https))
        #endif
        #expect(PlatformHTTPClient.usesSocket(for: https, tlsLoaded: true))
        #expect(!PlatformHTTPClient.usesSocket(for: https, tlsLoaded: false))
        #expect(PlatformHTTPClient.usesSocket(for: http, tlsLoaded: false))
        #expect(!PlatformHTTPClient.usesSocket(for: URL(string: "ftp://example.com/")!, tlsLoaded: true))
    }

    #if canImport(FoundationNetworking) && canImport(Glibc)
    @Test("without OpenSSL, sends https to URLSession with one warning that says what it costs")
    func fallbackWarning() async {
        let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
        let client = PlatformHTTPClient(
            logger: logger,
            openSSL: .failure(OpenSSLLibrary.LoadFailure(description: "libssl.so.3: cannot open shared object file"))
        )
        defer { client.shutdown() }
        for url in ["https://127.0.0.1:1/a", "https://127.0.0.1:1/b", "http://127.0.0.1:1/c"] {
            let request = HTTPRequest(url: URL(string: url)!, headers: [:], body: Data(), timeout: 10)
            await #expect(throws: (any Error).self) {
                for try await _ in client.start(request).parts {}
            }
        }
        let warnings = logger.messages(at: .warn)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("libssl.so.3: cannot open shared object file") == true)
        #expect(warnings.first?.contains("URLSession") == true)
        #expect(warnings.first?.contains("CPU core busy") == true)
        // TLSSocketHTTPClientTests.certificateFile measures it: libcurl does not read the variable.
        #expect(warnings.first?.contains("SSL_CERT_FILE and SSL_CERT_DIR do not reach it") == true)
    }
    #endif

    #if canImport(Glibc) || canImport(Darwin)
    @Test("reaches a loopback peer over http, and refuses every request after shutdown")
    func roundTripThenShutdown() async throws {
        let server = try LoopbackServer { connection in
            _ = connection.readRequest()
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }
        let client = PlatformHTTPClient(logger: SilentLogger())
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
