#if canImport(Glibc)  // The socket client is compiled for Linux alone.
@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) @testable import ConfigTransport
import Foundation
import Testing
import TestSupport
import ModelTestSupport

/// The socket client through a real HTTP proxy on loopback (TestSupport's Python `HTTPProxyPeer`), to a real
/// TLS server (`TLSPeer`) or a plain one: `CONNECT` tunnels, absolute-form requests, `NO_PROXY`, credentials,
/// and proxies that refuse, close, stall or misbehave. The target's name, `config.internal.test`, only the
/// proxy can resolve: a request that reaches it proves that the client never resolved it.
@Suite(
    "Socket HTTP client through a proxy", .timeLimit(.minutes(1)),
    .enabled(if: ChildProcess.areInstalled("python3", "openssl"), "needs python3 and openssl in PATH: not installed")
)
struct ProxyTests {
    /// The SDK key the requests carry: it must reach the server, and never the proxy or the log in the clear.
    private static let sdkKey = "sdk-key-never-at-the-proxy-4242"
    private static let name = TLSTestCertificates.internalName

    /// A client that goes through the proxies that `environment` sets and trusts the test root of `certificates`.
    private static func client(
        _ environment: [String: String], trusting certificates: TLSTestCertificates, logger: RecordingLogger
    ) throws -> SocketHTTPClient {
        SocketHTTPClient(
            logger: logger,
            openSSL: .success(try #require(try? OpenSSLLibrary.shared.get())),
            proxySettings: ProxySettings(environment: environment),
            additionalTrustedRoot: certificates.rootPath
        )
    }

    private static func request(_ url: String, timeout: Double = 10) -> HTTPRequest {
        HTTPRequest(
            url: URL(string: url)!, method: "POST", headers: ["Authorization": sdkKey], body: Data("hello".utf8),
            timeout: timeout
        )
    }

    /// A logger that records an issue for any line that carries the SDK key or `secrets`.
    private static func logger(forbidding secrets: [String] = []) -> RecordingLogger {
        RecordingLogger(level: .debug, forbidding: [sdkKey] + secrets)
    }

    @Test("https goes through a CONNECT tunnel to a name only the proxy resolves, the SDK key never at the proxy")
    func tunnel() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let server = try await TLSPeer.start(.echo, certificates: certificates)
        defer { server.stop() }
        let proxy = try await HTTPProxyPeer.start(resolving: [Self.name])
        defer { proxy.stop() }
        let logger = Self.logger()
        let client = try Self.client(["HTTPS_PROXY": proxy.url()], trusting: certificates, logger: logger)
        defer { client.shutdown() }
        let url = "https://\(Self.name):\(server.port)/path?q=1"

        for _ in 0..<2 {
            let outcome = await ExchangeOutcome.collect(client.start(Self.request(url)))
            #expect(outcome.error == nil)
            #expect(outcome.heads.map(\.statusCode) == [200])
            // The server saw the request as without a proxy: origin form, its Host, the SDK key.
            let lines = outcome.text.components(separatedBy: "\r\n")
            #expect(lines.first == "POST /path?q=1 HTTP/1.1")
            #expect(lines.contains("Host: \(Self.name):\(server.port)"))
            #expect(lines.contains("Authorization: \(Self.sdkKey)"))
            #expect(!outcome.text.lowercased().contains("proxy-authorization"))
        }
        let connect = "CONNECT \(Self.name):\(server.port) HTTP/1.1\r\nHost: \(Self.name):\(server.port)"
        #expect(proxy.heads == [connect, connect])
        let seen = String(decoding: proxy.receivedBytes, as: UTF8.self)
        #expect(!seen.contains(Self.sdkKey))
        #expect(!seen.contains("hello"))
        #expect(
            logger.messages(at: .info) == [
                "Requests go through the HTTP proxy http://127.0.0.1:\(proxy.port) (from HTTPS_PROXY)."
            ])
    }

    @Test("the certificate is verified against the URL's host through the tunnel, never the proxy's")
    func verifiesTheTarget() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        // The certificate names 127.0.0.1, where the proxy is, and not `other.internal.test`.
        let server = try await TLSPeer.start(.echo, certificates: certificates)
        defer { server.stop() }
        let proxy = try await HTTPProxyPeer.start(resolving: ["other.internal.test"])
        defer { proxy.stop() }
        let client = try Self.client(["https_proxy": proxy.url()], trusting: certificates, logger: Self.logger())
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(
            client.start(Self.request("https://other.internal.test:\(server.port)/path"))
        )
        let error = try #require(outcome.urlError)
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.localizedDescription.contains("other.internal.test"))
        #expect(error.localizedDescription.contains("mismatch"))
        #expect(proxy.heads.first?.hasPrefix("CONNECT other.internal.test:\(server.port) ") == true)
    }

    @Test("http goes to the proxy in absolute form with its credentials, the Host still the target's")
    func absoluteForm() async throws {
        let received = Protected<String?>(nil)
        let server = try LoopbackServer { connection in
            received.set(connection.readRequest()?.head)
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }
        let proxy = try await HTTPProxyPeer.start(requiring: "alice:p@ss word", resolving: [Self.name])
        defer { proxy.stop() }
        let authorization = "Basic " + Data("alice:p@ss word".utf8).base64EncodedString()
        let logger = Self.logger(forbidding: ["p@ss", "p%40ss", authorization])
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let environment = ["http_proxy": proxy.url(userInfo: "alice:p%40ss%20word")]
        let client = try Self.client(environment, trusting: certificates, logger: logger)
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(
            client.start(Self.request("http://\(Self.name):\(server.port)/path?q=1"))
        )
        #expect(outcome.error == nil)
        #expect(outcome.text == "ok")
        let head = try #require(proxy.heads.first).components(separatedBy: "\r\n")
        #expect(head.first == "POST http://\(Self.name):\(server.port)/path?q=1 HTTP/1.1")
        #expect(head.contains("Host: \(Self.name):\(server.port)"))
        #expect(head.contains("Proxy-Authorization: \(authorization)"))
        #expect(received.current?.hasPrefix("POST /path?q=1 HTTP/1.1\r\n") == true)
        #expect(logger.messages(at: .info).first?.contains("http://***@127.0.0.1:\(proxy.port)") == true)
    }

    @Test("credentials go in the CONNECT request alone, never through the tunnel to the server, never to the log")
    func credentialsToTheProxyOnly() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let server = try await TLSPeer.start(.echo, certificates: certificates)
        defer { server.stop() }
        let proxy = try await HTTPProxyPeer.start(requiring: "bob:s3cret", resolving: [Self.name])
        defer { proxy.stop() }
        let authorization = "Basic " + Data("bob:s3cret".utf8).base64EncodedString()
        let logger = Self.logger(forbidding: ["s3cret", authorization])
        let environment = ["https_proxy": proxy.url(userInfo: "bob:s3cret")]
        let client = try Self.client(environment, trusting: certificates, logger: logger)
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(
            client.start(Self.request("https://\(Self.name):\(server.port)/path"))
        )
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.statusCode) == [200])
        #expect(!outcome.text.lowercased().contains("proxy-authorization"))
        #expect(!outcome.text.contains(authorization))
        #expect(
            proxy.heads.first?.components(separatedBy: "\r\n").contains("Proxy-Authorization: \(authorization)") == true
        )
        #expect(
            logger.messages(at: .info) == [
                "Requests go through the HTTP proxy http://***@127.0.0.1:\(proxy.port) (from https_proxy)."
            ])
    }

    @Test("a 407 from the proxy fails with userAuthenticationRequired, over https and over http")
    func authenticationRequired() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let proxy = try await HTTPProxyPeer.start(requiring: "bob:s3cret", resolving: [Self.name])
        defer { proxy.stop() }
        let environment = ["https_proxy": proxy.url(userInfo: "bob:wrong"), "http_proxy": proxy.url()]
        let client = try Self.client(environment, trusting: certificates, logger: Self.logger(forbidding: ["wrong"]))
        defer { client.shutdown() }
        for url in ["https://\(Self.name):443/path", "http://\(Self.name):80/path"] {
            let outcome = await ExchangeOutcome.collect(client.start(Self.request(url)))
            let error = try #require(outcome.urlError)
            #expect(error.code == .userAuthenticationRequired)
            #expect(error.localizedDescription.contains("407"))
            #expect(outcome.heads.isEmpty)
        }
    }

    @Test(
        "a proxy that refuses, closes, stalls past the timeout, speaks first or sends a head over 64 KiB fails with a URLError, without a hang",
        arguments: [
            (HTTPProxyPeer.Behaviour.forbid, URLError.Code.cannotConnectToHost, "status 403"),
            (.close, .networkConnectionLost, "closed the connection before it answered CONNECT"),
            (.silent, .timedOut, "-1001"),
            (.extraBytes, .badServerResponse, "sent bytes after its answer to CONNECT"),
            (.hugeHead, .badServerResponse, "answered CONNECT with a head over 65536 bytes"),
        ]
    )
    func misbehavingProxy(behaviour: HTTPProxyPeer.Behaviour, code: URLError.Code, text: String) async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let server = try await TLSPeer.start(.echo, certificates: certificates)
        defer { server.stop() }
        let proxy = try await HTTPProxyPeer.start(behaviour, resolving: [Self.name])
        defer { proxy.stop() }
        let client = try Self.client(["https_proxy": proxy.url()], trusting: certificates, logger: Self.logger())
        defer { client.shutdown() }
        // The timeout bounds the connect to the proxy and the CONNECT exchange together.
        let timeout = behaviour == .silent ? 0.5 : 10
        let outcome = await ExchangeOutcome.collect(
            client.start(Self.request("https://\(Self.name):\(server.port)/path", timeout: timeout))
        )
        let error = try #require(outcome.urlError)
        #expect(error.code == code)
        #expect(error.localizedDescription.contains(text))
        #expect(outcome.heads.isEmpty)
        #expect(await eventually { client.runningExchangeCount == 0 })
    }

    @Test("a proxy that refuses connections fails with cannotConnectToHost naming the proxy")
    func refusedConnection() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let closed = try LoopbackServer(refusing: true) { _ in }
        defer { closed.stop() }
        let environment = ["https_proxy": "127.0.0.1:\(closed.port)"]
        let client = try Self.client(environment, trusting: certificates, logger: Self.logger())
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(client.start(Self.request("https://\(Self.name)/path")))
        let error = try #require(outcome.urlError)
        #expect(error.code == .cannotConnectToHost)
        #expect(error.localizedDescription.contains("HTTP proxy http://127.0.0.1:\(closed.port) (from https_proxy)"))
    }

    @Test(
        "NO_PROXY sends a matching host directly, the proxy seeing nothing of it, and others through the proxy",
        arguments: ["127.0.0.1", "127.0.0.0/8", "127.0.0.1:PORT"]
    )
    func noProxyBypass(noProxy: String) async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let server = try await TLSPeer.start(.echo, certificates: certificates)
        defer { server.stop() }
        let proxy = try await HTTPProxyPeer.start(resolving: [Self.name])
        defer { proxy.stop() }
        let logger = Self.logger()
        let noProxy = noProxy.replacingOccurrences(of: "PORT", with: String(server.port))
        let environment = ["https_proxy": proxy.url(), "NO_PROXY": "example.com, \(noProxy)"]
        let client = try Self.client(environment, trusting: certificates, logger: logger)
        defer { client.shutdown() }
        let direct = await ExchangeOutcome.collect(client.start(Self.request(server.url().absoluteString)))
        #expect(direct.error == nil)
        #expect(direct.heads.map(\.statusCode) == [200])
        #expect(proxy.heads.isEmpty)
        #expect(proxy.receivedBytes.isEmpty)
        #expect(logger.messages(at: .info).isEmpty)

        let proxied = await ExchangeOutcome.collect(
            client.start(Self.request("https://\(Self.name):\(server.port)/path"))
        )
        #expect(proxied.error == nil)
        #expect(
            proxy.heads.map { $0.components(separatedBy: "\r\n")[0] } == [
                "CONNECT \(Self.name):\(server.port) HTTP/1.1"
            ])
    }

    @Test("a proxy of another scheme is not used: one warning names it, and requests go directly")
    func unsupportedScheme() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let server = try await TLSPeer.start(.echo, certificates: certificates)
        defer { server.stop() }
        let logger = Self.logger(forbidding: ["s3cret"])
        let environment = ["https_proxy": "socks5://bob:s3cret@127.0.0.1:1"]
        let client = try Self.client(environment, trusting: certificates, logger: logger)
        defer { client.shutdown() }
        for _ in 0..<2 {
            let outcome = await ExchangeOutcome.collect(client.start(Self.request(server.url().absoluteString)))
            #expect(outcome.error == nil)
        }
        let warnings = logger.messages(at: .warn)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("socks5://") == true)
        #expect(warnings.first?.contains("https_proxy") == true)
    }
}
#endif
