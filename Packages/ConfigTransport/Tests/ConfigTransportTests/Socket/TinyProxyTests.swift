#if canImport(Glibc)  // The socket client is compiled for Linux alone.
@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) @testable import ConfigTransport
import Foundation
import Testing
import TestSupport
import ModelTestSupport

/// The socket client through Debian's `tinyproxy` (TestSupport's `TinyProxy`), a proxy the SDK's tests do not
/// write: a `CONNECT` tunnel to a TLS server, an absolute-form request to a plain one, and `BasicAuth`.
/// `Tests/Proxy/setup.sh` installs it (`make test-proxy`); where it is missing the suite is reported skipped.
@Suite(
    "Socket HTTP client through tinyproxy", .timeLimit(.minutes(1)),
    .enabled(
        if: ChildProcess.areInstalled("tinyproxy", "python3", "openssl"),
        "needs tinyproxy, python3 and openssl in PATH: not installed (Tests/Proxy/setup.sh installs tinyproxy)"
    )
)
struct TinyProxyTests {
    private static let sdkKey = "sdk-key-through-tinyproxy-4242"

    private static func client(
        _ environment: [String: String], trusting certificates: TLSTestCertificates
    ) throws -> SocketHTTPClient {
        SocketHTTPClient(
            logger: RecordingLogger(level: .debug, forbidding: [sdkKey, "s3cret"]),
            openSSL: .success(try #require(try? OpenSSLLibrary.shared.get())),
            proxySettings: ProxySettings(environment: environment),
            additionalTrustedRoot: certificates.rootPath
        )
    }

    private static func request(_ url: String) -> HTTPRequest {
        HTTPRequest(
            url: URL(string: url)!, method: "POST", headers: ["Authorization": sdkKey], body: Data("hello".utf8),
            timeout: 10
        )
    }

    @Test("https goes through tinyproxy's CONNECT tunnel, and tinyproxy's BasicAuth answers 407 without credentials")
    func tunnel() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let server = try await TLSPeer.start(.echo, certificates: certificates)
        defer { server.stop() }
        let proxy = try await TinyProxy.start(requiring: (user: "bob", password: "s3cret"))
        defer { proxy.stop() }
        let url = "https://localhost:\(server.port)/path?q=1"

        let client = try Self.client(["https_proxy": proxy.url(userInfo: "bob:s3cret")], trusting: certificates)
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(client.start(Self.request(url)))
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.statusCode) == [200])
        let lines = outcome.text.components(separatedBy: "\r\n")
        #expect(lines.first == "POST /path?q=1 HTTP/1.1")
        #expect(lines.contains("Host: localhost:\(server.port)"))
        #expect(lines.contains("Authorization: \(Self.sdkKey)"))
        #expect(!outcome.text.lowercased().contains("proxy-authorization"))

        let anonymous = try Self.client(["https_proxy": proxy.url()], trusting: certificates)
        defer { anonymous.shutdown() }
        let refused = await ExchangeOutcome.collect(anonymous.start(Self.request(url)))
        #expect(refused.urlError?.code == .userAuthenticationRequired)
        #expect(refused.heads.isEmpty)
    }

    @Test("http goes to tinyproxy in absolute form, and reaches the server through it")
    func absoluteForm() async throws {
        let received = Protected<String?>(nil)
        let server = try LoopbackServer { connection in
            received.set(connection.readRequest()?.head)
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        }
        defer { server.stop() }
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let proxy = try await TinyProxy.start()
        defer { proxy.stop() }
        let client = try Self.client(["http_proxy": proxy.url()], trusting: certificates)
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(
            client.start(Self.request("http://127.0.0.1:\(server.port)/path?q=1"))
        )
        #expect(outcome.error == nil)
        #expect(outcome.text == "ok")
        let head = try #require(received.current).components(separatedBy: "\r\n")
        #expect(head.first == "POST /path?q=1 HTTP/1.1")
        // tinyproxy names itself in `Via`: the request went through it.
        #expect(head.contains { $0.lowercased().hasPrefix("via:") && $0.contains("tinyproxy") })
        #expect(head.contains("Authorization: \(Self.sdkKey)"))
    }
}
#endif
