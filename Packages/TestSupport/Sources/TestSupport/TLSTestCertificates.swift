#if canImport(Glibc)
public import Foundation

/// Certificates made for one test or benchmark with the `openssl` command in a temporary folder: a test root,
/// and server certificates that it signs (or not) for a ``TLSPeer`` on 127.0.0.1. ``remove()`` deletes the folder.
public final class TLSTestCertificates: Sendable {
    /// A server certificate, by what is right or wrong with it.
    public enum Server: String, CaseIterable, Sendable {
        /// Signed by the test root, for `127.0.0.1`, `localhost` and ``TLSTestCertificates/internalName`` (a
        /// name that only a test proxy resolves), valid for a century.
        case valid
        /// Signed by the test root, for `wrong.example` only.
        case wrongHost = "wrong-host"
        /// Signed by the test root, for `127.0.0.1`, and expired a day before it was made.
        case expired
        /// Self-signed, for `127.0.0.1`: no trusted root signed it.
        case untrusted
        /// Signed by the test root, with `CN=localhost` and no subject alternative name: only a verifier that falls
        /// back to the common name accepts it for `localhost`.
        case commonNameOnly = "common-name-only"
        /// Signed by the test root, for `127.0.0.1` and `localhost`, with an RSA key of 1,024 bits (``weakKeyPath``):
        /// about 80 bits of security, under OpenSSL's security level 2.
        case weakKey = "weak-key"
    }

    /// A made-up name in ``Server/valid``'s certificate, `config.internal.test`, that no resolver knows (`.test` is
    /// reserved): a proxy test's proxy resolves it to 127.0.0.1, and the client must never resolve it itself.
    public static let internalName = "config.internal.test"

    /// The folder that holds every file.
    public let folder: URL

    /// The test root's certificate, a PEM file for the socket client's test seam or for `SSL_CERT_FILE`.
    public var rootPath: String { folder.appendingPathComponent("root.pem").path }
    /// The private key of every server certificate but ``Server/weakKey``'s.
    public var serverKeyPath: String { folder.appendingPathComponent("server.key").path }
    /// The private key of ``Server/weakKey``, RSA of 1,024 bits.
    public var weakKeyPath: String { folder.appendingPathComponent("weak.key").path }

    /// The private key of `server`.
    /// - Parameter server: Which certificate.
    /// - Returns: Its key's path.
    public func keyPath(of server: Server) -> String {
        server == .weakKey ? weakKeyPath : serverKeyPath
    }

    /// The PEM file of `server`.
    /// - Parameter server: Which certificate.
    /// - Returns: Its path.
    public func path(of server: Server) -> String {
        folder.appendingPathComponent("\(server.rawValue).pem").path
    }

    /// Makes the root and every server certificate.
    /// - Throws: When `openssl` fails or is missing.
    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + ec + ["-keyout", "root.key", "-out", "root.pem", "-days", "36500"]
                + ["-subj", "/CN=ConfigDirector Test Root", "-addext", "basicConstraints=critical,CA:TRUE"]
                + ["-addext", "keyUsage=critical,keyCertSign,cRLSign"]
        )
        try run(["req", "-new"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"])
        try run(["req", "-new", "-key", "server.key", "-out", "localhost.csr", "-subj", "/CN=localhost"])
        try run(
            ["req", "-new", "-newkey", "rsa:1024", "-nodes", "-keyout", "weak.key", "-out", "weak.csr"] + [
                "-subj", "/CN=127.0.0.1",
            ])
        let signed: [(Server, request: String, names: String?, days: String)] = [
            (.valid, "server.csr", "IP:127.0.0.1,DNS:localhost,DNS:\(Self.internalName)", "36500"),
            (.wrongHost, "server.csr", "DNS:wrong.example", "36500"),
            // A negative validity: it starts now and ended a day ago.
            (.expired, "server.csr", "IP:127.0.0.1,DNS:localhost", "-1"),
            (.commonNameOnly, "localhost.csr", nil, "36500"),
            (.weakKey, "weak.csr", "IP:127.0.0.1,DNS:localhost", "36500"),
        ]
        for (index, (server, request, names, days)) in signed.enumerated() {
            var extensions: [String] = []
            if let names {
                let file = folder.appendingPathComponent("\(server.rawValue).ext")
                try Data("subjectAltName=\(names)\n".utf8).write(to: file)
                extensions = ["-extfile", file.path]
            }
            try run(
                ["x509", "-req", "-in", request, "-CA", "root.pem", "-CAkey", "root.key"]
                    + ["-set_serial", "\(index + 2)", "-days", days] + extensions + ["-out", "\(server.rawValue).pem"]
            )
        }
        try run(
            ["req", "-x509", "-key", "server.key", "-out", "untrusted.pem", "-days", "36500"]
                + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        )
    }

    /// Deletes the folder.
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `openssl` with `arguments` in the folder.
    private func run(_ arguments: [String]) throws {
        try ChildProcess.openssl(arguments, in: folder)
    }
}
#endif
