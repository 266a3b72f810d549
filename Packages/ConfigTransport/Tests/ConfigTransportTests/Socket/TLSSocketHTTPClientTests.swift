#if canImport(Glibc)
@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) @testable import ConfigTransport
import Foundation
import Glibc
import Testing
import TestSupport
import ModelTestSupport
@_spi(Testing) import TransportTestSupport

/// The socket client over TLS against TestSupport's Python peer (`TLSPeer`) on loopback: streams, one-shot
/// requests, refused certificates, servers that close at awkward moments, timeouts and cancel.
@Suite(
    "Socket HTTP client over TLS", .timeLimit(.minutes(1)),
    // Gated on the tools alone, never skipped otherwise: where python3 and openssl are installed, it runs.
    .enabled(if: ChildProcess.areInstalled("python3", "openssl"), "needs python3 and openssl in PATH: not installed")
)
struct TLSSocketHTTPClientTests {
    /// The loaded OpenSSL; the suite needs it (every Linux with Python's `ssl` has it).
    private static func openSSL() throws -> OpenSSLLibrary {
        try #require(try? OpenSSLLibrary.shared.get())
    }

    /// A client that trusts the test root of `certificates` besides the system's roots.
    private static func client(trusting certificates: TLSTestCertificates) throws -> SocketHTTPClient {
        SocketHTTPClient(
            logger: SilentLogger(level: .debug),
            openSSL: .success(try openSSL()),
            additionalTrustedRoot: certificates.rootPath
        )
    }

    private static func request(
        _ url: URL,
        method: String = "POST",
        timeout: Double = 10,
        body: String = "hello"
    ) -> HTTPRequest {
        HTTPRequest(url: url, method: method, headers: ["X-Test": "yes"], body: Data(body.utf8), timeout: timeout)
    }

    /// Starts a peer in `mode` presenting `server`, sends the standard request with a client that trusts the
    /// test root, and reads the exchange to its end.
    private static func exchange(
        _ mode: TLSPeer.Mode,
        server: TLSTestCertificates.Server = .valid,
        host: String = "127.0.0.1"
    ) async throws -> ExchangeOutcome {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let peer = try await TLSPeer.start(mode, certificates: certificates, server: server)
        defer { peer.stop() }
        let client = try client(trusting: certificates)
        defer { client.shutdown() }
        return await ExchangeOutcome.collect(client.start(request(peer.url(host: host))))
    }

    @Test(
        "streams a chunked event stream over https as it arrives, then cancel ends it and its thread",
        arguments: [60, Double.infinity]  // The streaming transport's request has no timeout.
    )
    func stream(timeout: Double) async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let peer = try await TLSPeer.start(.stream, certificates: certificates)
        defer { peer.stop() }
        let client = try Self.client(trusting: certificates)
        defer { client.shutdown() }
        let exchange = client.start(Self.request(peer.url(), method: "GET", timeout: timeout, body: ""))
        let outcome = await ExchangeOutcome.collect(exchange) { _, body in
            if String(decoding: body, as: UTF8.self).contains("data: 2\n\n") { exchange.cancel() }
        }
        #expect(outcome.urlError?.code == .cancelled)
        #expect(outcome.heads.map(\.statusCode) == [200])
        #expect(outcome.heads.first?.value(forHeader: "content-type") == "text/event-stream")
        #expect(outcome.text == "data: 1\n\ndata: 2\n\n")
        #expect(await eventually { client.runningExchangeCount == 0 })
    }

    @Test("reads a connection-close event stream over https in pieces, up to the server's close_notify")
    func closeDelimited() async throws {
        let outcome = try await Self.exchange(.closeStream)
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.statusCode) == [200])
        #expect(outcome.text == "data: 1\n\ndata: 2\n\n")
    }

    @Test("sends a POST and a GET over https and reads their Content-Length responses")
    func oneShot() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let peer = try await TLSPeer.start(.echo, certificates: certificates)
        defer { peer.stop() }
        let client = try Self.client(trusting: certificates)
        defer { client.shutdown() }
        let post = await ExchangeOutcome.collect(client.start(Self.request(peer.url(), body: "{\"events\":[]}")))
        #expect(post.error == nil)
        #expect(post.heads.map(\.statusCode) == [200])
        let lines = post.text.components(separatedBy: "\r\n")
        #expect(lines.first == "POST /path?q=1 HTTP/1.1")
        #expect(lines.contains("Host: 127.0.0.1:\(peer.port)"))
        #expect(lines.contains("Content-Length: 13"))
        #expect(lines.contains("X-Test: yes"))
        #expect(post.text.hasSuffix("\r\n\r\n{\"events\":[]}"))

        let get = await ExchangeOutcome.collect(client.start(Self.request(peer.url(), method: "GET", body: "")))
        #expect(get.error == nil)
        #expect(get.text.hasPrefix("GET /path?q=1 HTTP/1.1\r\n"))
        #expect(!get.text.contains("Content-Length"))
    }

    @Test("reaches a server by name: SNI and a DNS name in the certificate")
    func byName() async throws {
        let outcome = try await Self.exchange(.echo, host: "localhost")
        #expect(outcome.error == nil)
        #expect(outcome.text.contains("\r\nHost: localhost:"))
    }

    @Test("refuses a certificate for another host with serverCertificateUntrusted")
    func wrongHost() async throws {
        let outcome = try await Self.exchange(.echo, server: .wrongHost)
        let error = try #require(outcome.urlError)
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.localizedDescription.contains("127.0.0.1"))
        #expect(error.localizedDescription.contains("mismatch"))
        #expect(outcome.heads.isEmpty)
    }

    @Test("refuses a certificate that no trusted root signed with serverCertificateUntrusted")
    func untrusted() async throws {
        let outcome = try await Self.exchange(.echo, server: .untrusted)
        let error = try #require(outcome.urlError)
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.localizedDescription.contains("was refused"))
        #expect(outcome.heads.isEmpty)
    }

    @Test("refuses an expired certificate with serverCertificateHasBadDate")
    func expired() async throws {
        let outcome = try await Self.exchange(.echo, server: .expired)
        let error = try #require(outcome.urlError)
        #expect(error.code == .serverCertificateHasBadDate)
        #expect(error.localizedDescription.contains("expired"))
        #expect(outcome.heads.isEmpty)
    }

    @Test("refuses a server that offers nothing newer than TLS 1.1 with secureConnectionFailed")
    func oldProtocol() async throws {
        let outcome = try await Self.exchange(.tls11)
        let error = try #require(outcome.urlError)
        #expect(error.code == .secureConnectionFailed)
        #expect(error.localizedDescription.contains("protocol"))
        #expect(outcome.heads.isEmpty)
    }

    @Test("refuses the test root's certificate when the root is not added: the system's store alone")
    func systemStoreAlone() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let peer = try await TLSPeer.start(.echo, certificates: certificates)
        defer { peer.stop() }
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug), openSSL: .success(try Self.openSSL()))
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(client.start(Self.request(peer.url())))
        #expect(outcome.urlError?.code == .serverCertificateUntrusted)
    }

    @Test("refuses a certificate that names the host in its common name alone, as Apple's and browsers' verifiers do")
    func commonNameOnly() async throws {
        let outcome = try await Self.exchange(.echo, server: .commonNameOnly, host: "localhost")
        let error = try #require(outcome.urlError)
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.localizedDescription.contains("mismatch"))
        #expect(outcome.heads.isEmpty)
    }

    @Test("shakes hands for a fully qualified name: its trailing dot is left out of SNI and of the certificate's match")
    func trailingDot() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let peer = try await TLSPeer.start(.echo, certificates: certificates)
        defer { peer.stop() }
        let context = try TLSContext(library: try Self.openSSL(), additionalTrustedRoot: certificates.rootPath)
        // A socket to the peer's address, and TLS for the name `localhost.`: resolving that absolute name is the
        // system's (this machine's resolver does not know it; curl fails the same way here).
        try await offThePool {
            let socket = try connectedLoopbackSocket(port: peer.port)
            defer { close(socket) }
            let connection = try context.connection(over: socket, host: "localhost.")
            // A blocking socket: OpenSSL never asks to wait for it.
            try connection.handshake { _ in }
            connection.close()
        }
        #expect(TLSContext.nameWithoutRootDot("localhost.") == "localhost")
        #expect(TLSContext.nameWithoutRootDot("localhost..") == "localhost..")
        #expect(TLSContext.nameWithoutRootDot(".") == ".")
    }

    // The system's OpenSSL configuration is read once per process, when OpenSSL starts: these tests run their
    // client in a new process of the test binary, started with `OPENSSL_CONF` naming a configuration that
    // weakens the defaults as a user's `openssl.cnf` can, and read its outcome from a report.

    @Test("refuses a server that presents no certificate, when the system's configuration allows anonymous suites")
    func anonymousServerUnderWeakConfiguration() async throws {
        if try await Self.runRelaunchedExchange() { return }
        let outcome = try await Self.relaunchedExchange(
            .anonymous, cipherString: "ALL:@SECLEVEL=0", filter: "anonymousServerUnderWeakConfiguration")
        // Refused by the suites and the security level (no suite in common), or, were those to allow an anonymous
        // suite, by the certificate the handshake must have brought.
        let refusals = [URLError.Code.secureConnectionFailed, .serverCertificateUntrusted].map {
            "error \($0.rawValue) "
        }
        #expect(refusals.contains { outcome.hasPrefix($0) }, "\(outcome)")
    }

    @Test("refuses an RSA-1024 certificate, when the system's configuration sets security level 1")
    func weakKeyUnderLevelOne() async throws {
        if try await Self.runRelaunchedExchange() { return }
        let outcome = try await Self.relaunchedExchange(
            .echo, server: .weakKey, cipherString: "DEFAULT:@SECLEVEL=1", filter: "weakKeyUnderLevelOne")
        #expect(outcome.hasPrefix("error \(URLError.Code.serverCertificateUntrusted.rawValue) "), "\(outcome)")
        #expect(outcome.contains("key too weak"), "\(outcome)")
    }

    /// The HTTP layer a relaunched process requests its peer through.
    enum RelaunchedClient: String, CaseIterable, Sendable {
        case socket
        case urlSession
    }

    /// Set in a relaunched process: the URL it requests, its client, the root its socket client trusts besides
    /// the system's (if any), and where it reports.
    private static let relaunchedURL = "CONFIGDIRECTOR_TLS_URL"
    private static let relaunchedClient = "CONFIGDIRECTOR_TLS_CLIENT"
    private static let relaunchedRoot = "CONFIGDIRECTOR_TLS_ROOT"
    private static let relaunchedReport = "CONFIGDIRECTOR_TLS_REPORT"

    /// Starts a peer in `mode` presenting `server`, then runs the test `filter` in a new process whose OpenSSL
    /// reads a configuration of `CipherString = cipherString`, and whose `SSL_CERT_FILE` is the test root when
    /// `certificateFile` (else its socket client trusts the root besides the system's); that process requests the
    /// peer through `client` and reports.
    /// - Returns: What it reported: `ok <status>`, or `error <URLError code> <description>`.
    private static func relaunchedExchange(
        _ mode: TLSPeer.Mode,
        server: TLSTestCertificates.Server = .valid,
        cipherString: String? = nil,
        certificateFile: Bool = false,
        client: RelaunchedClient = .socket,
        filter: String
    ) async throws -> String {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let peer = try await TLSPeer.start(mode, certificates: certificates, server: server)
        defer { peer.stop() }
        let report = certificates.folder.appendingPathComponent("report.txt")
        var environment = [
            relaunchedURL: peer.url().absoluteString, relaunchedClient: client.rawValue, relaunchedReport: report.path,
        ]
        if certificateFile {
            environment["SSL_CERT_FILE"] = certificates.rootPath
        } else {
            environment[relaunchedRoot] = certificates.rootPath
        }
        if let cipherString {
            let configuration = certificates.folder.appendingPathComponent("openssl.cnf")
            let text = """
                openssl_conf = openssl_init
                [openssl_init]
                ssl_conf = ssl_configuration
                [ssl_configuration]
                system_default = tls_defaults
                [tls_defaults]
                CipherString = \(cipherString)

                """
            try Data(text.utf8).write(to: configuration)
            environment["OPENSSL_CONF"] = configuration.path
        }
        let status = try await relaunchThisTestBinary(filter: filter, environment: environment)
        guard status == 0 else { return "exit status \(status)" }
        return String(decoding: try Data(contentsOf: report), as: UTF8.self)
    }

    /// In a relaunched process, requests the URL it was given through the client it was given, and reports.
    /// - Returns: Whether this process is a relaunched one (and so the test's whole part here is done).
    private static func runRelaunchedExchange() async throws -> Bool {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment[relaunchedURL].flatMap(URL.init(string:)),
            let kind = environment[relaunchedClient].flatMap(RelaunchedClient.init(rawValue:)),
            let report = environment[relaunchedReport]
        else { return false }
        let logger = SilentLogger(level: .debug)
        let client: any HTTPClient =
            switch kind {
            case .socket:
                SocketHTTPClient(
                    logger: logger, openSSL: .success(try openSSL()),
                    additionalTrustedRoot: environment[relaunchedRoot])
            case .urlSession: URLSessionHTTPClient(logger: logger)
            }
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(client.start(request(url)))
        let line =
            if let error = outcome.urlError {
                "error \(error.code.rawValue) \(error.localizedDescription)"
            } else {
                "ok \(outcome.heads.first?.statusCode ?? 0)"
            }
        // Atomically: the relaunched process runs each argument of its test, each writing the same report.
        try Data(line.utf8).write(to: URL(fileURLWithPath: report), options: .atomic)
        return true
    }

    @Test(
        "SSL_CERT_FILE reaches the socket client, and not URLSession, the https fallback where OpenSSL does not load",
        arguments: [RelaunchedClient.socket, .urlSession])
    func certificateFile(client: RelaunchedClient) async throws {
        if try await Self.runRelaunchedExchange() { return }
        let outcome = try await Self.relaunchedExchange(
            .echo, certificateFile: true, client: client, filter: "certificateFile")
        switch client {
        case .socket: #expect(outcome == "ok 200")
        // libcurl's own bundle: "SSL certificate problem: unable to get local issuer certificate". The fallback's
        // warning says so (PlatformHTTPClientTests).
        case .urlSession: #expect(outcome.hasPrefix("error ") && outcome.contains("certificate"), "\(outcome)")
        }
    }

    @Test("a refused certificate is a transient error of the streaming transport: retried with backoff, warned once")
    func refusedCertificateIsRetried() async throws {
        let certificates = try await offThePool { try TLSTestCertificates() }
        defer { certificates.remove() }
        let peer = try await TLSPeer.start(.echo, certificates: certificates, server: .expired)
        defer { peer.stop() }
        let client = try Self.client(trusting: certificates)
        let clock = ManualClock()
        let logger = RecordingLogger(forbidding: [Fixtures.sdkKey])
        let recorder = TransportEventRecorder()
        let configuration = TransportConfiguration(
            clientSDKKey: Fixtures.sdkKey,
            endpoint: ServiceEndpoint(baseURL: URL(string: "https://127.0.0.1:\(peer.port)")!),
            metaContext: Fixtures.metaContext,
            instanceID: Fixtures.instanceID,
            logger: logger,
            clock: clock,
            randomFraction: { 0.5 }
        )
        let transport = HTTPTransportFactory(mode: .streaming, configuration: configuration, httpClient: { client })
            .makeTransport(handler: recorder.handler)
        defer { transport.close() }
        transport.connect(context: nil, reason: .initialization)
        #expect(await eventually { recorder.reconnects.count == 1 && clock.sleeperCount > 0 })
        clock.advance(by: try #require(recorder.reconnects.first).delay)
        #expect(await eventually { recorder.reconnects.count == 2 })
        #expect(recorder.reconnects.map(\.attempt) == [1, 2])
        let warnings = logger.messages(at: .warn)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("certificate has expired") == true)
        #expect(!logger.mentions(Fixtures.sdkKey))
        #expect(logger.messages(at: .error).isEmpty)
    }

    @Test("survives a server that closes in the middle of the handshake")
    func closedMidHandshake() async throws {
        let outcome = try await Self.exchange(.midHandshake)
        let error = try #require(outcome.urlError)
        #expect([.networkConnectionLost, .secureConnectionFailed].contains(error.code))
        #expect(error.localizedDescription.contains("127.0.0.1"))
        #expect(outcome.heads.isEmpty)
    }

    @Test("survives a server that closes in the middle of a record")
    func closedMidRecord() async throws {
        let outcome = try await Self.exchange(.midRecord)
        #expect(outcome.urlError?.code == .networkConnectionLost)
        #expect(outcome.urlError?.localizedDescription.contains("mid-record") == true)
        #expect(outcome.heads.map(\.statusCode) == [200])
        #expect(outcome.body.isEmpty)
    }

    @Test("times out a server that accepts but never answers the handshake")
    func silentHandshake() async throws {
        let server = try LoopbackServer { connection in connection.holdUntilStopped() }
        defer { server.stop() }
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug), openSSL: .success(try Self.openSSL()))
        defer { client.shutdown() }
        let url = URL(string: "https://127.0.0.1:\(server.port)/")!
        let outcome = await ExchangeOutcome.collect(client.start(Self.request(url, timeout: 0.3)))
        #expect(outcome.urlError?.code == .timedOut)
    }

    @Test("shutdown ends an exchange waiting in the handshake with CancellationError")
    func shutdownDuringHandshake() async throws {
        let server = try LoopbackServer { connection in connection.holdUntilStopped() }
        defer { server.stop() }
        let client = SocketHTTPClient(logger: SilentLogger(level: .debug), openSSL: .success(try Self.openSSL()))
        let exchange = client.start(Self.request(URL(string: "https://127.0.0.1:\(server.port)/")!, timeout: 60))
        #expect(await eventually { server.acceptedCount == 1 })
        client.shutdown()
        let outcome = await ExchangeOutcome.collect(exchange)
        #expect(outcome.error is CancellationError)
        #expect(await eventually { client.runningExchangeCount == 0 })
    }

    @Test("fails https with unsupportedURL when OpenSSL did not load")
    func withoutOpenSSL() async {
        let client = SocketHTTPClient(
            logger: SilentLogger(level: .debug),
            openSSL: .failure(OpenSSLLibrary.LoadFailure(description: "libssl.so.3: not found"))
        )
        defer { client.shutdown() }
        let outcome = await ExchangeOutcome.collect(client.start(Self.request(URL(string: "https://127.0.0.1:1/")!)))
        #expect(outcome.urlError?.code == .unsupportedURL)
        #expect(outcome.urlError?.localizedDescription.contains("libssl.so.3: not found") == true)
    }

    @Test("maps certificate dates to serverCertificateHasBadDate and the rest to serverCertificateUntrusted")
    func certificateErrorCodes() {
        for result in [9, 10, 13, 14] {
            #expect(TLSConnection.certificateErrorCode(forVerifyResult: result) == .serverCertificateHasBadDate)
        }
        for result in [18, 19, 20, 21, 62, 64] {
            #expect(TLSConnection.certificateErrorCode(forVerifyResult: result) == .serverCertificateUntrusted)
        }
        #expect(TLSContext.isIPAddress("127.0.0.1"))
        #expect(TLSContext.isIPAddress("::1"))
        #expect(!TLSContext.isIPAddress("localhost"))
    }
}
#endif
