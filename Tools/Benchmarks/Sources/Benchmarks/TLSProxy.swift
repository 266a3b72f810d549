#if os(Linux)
import Foundation
import TestSupport

/// A TLS front for the emulator, for benchmark 8's https variant: a Python 3 script (its `ssl` module) that
/// accepts TLS on 127.0.0.1 and relays each connection's bytes to the emulator's plain port, with a
/// certificate for 127.0.0.1 signed by a root made for the run with the `openssl` command.
///
/// The client trusts the root through `SSL_CERT_FILE`, which OpenSSL reads when the SDK makes its TLS settings:
/// the SDK has no other way to trust a root, by design. The proxy runs in its own process, so its CPU time is
/// not the benchmark's. ``stop()`` ends it and deletes the folder.
final class TLSProxy {
    /// The port it listens on.
    let port: Int
    /// The folder of the root, the certificate, the key and the script.
    let folder: URL
    private let process: ChildProcess

    /// The root's certificate, for `SSL_CERT_FILE`.
    var rootPath: String { folder.appendingPathComponent("root.pem").path }

    /// Makes the certificates and starts the proxy in front of `target`'s port on 127.0.0.1.
    /// - Throws: When `openssl` or Python fails, or no port is reported within ten seconds.
    init(forwardingTo targetPort: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try ChildProcess.openssl(
            ["req", "-x509"] + ec + ["-keyout", "root.key", "-out", "root.pem", "-days", "3650"]
                + ["-subj", "/CN=ConfigDirector Benchmark Root", "-addext", "basicConstraints=critical,CA:TRUE"]
                + ["-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            in: folder
        )
        try ChildProcess.openssl(
            ["req", "-new"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"],
            in: folder
        )
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: folder.appendingPathComponent("server.ext"))
        try ChildProcess.openssl(
            ["x509", "-req", "-in", "server.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "2"]
                + ["-days", "3650", "-extfile", "server.ext", "-out", "server.pem"],
            in: folder
        )
        let script = folder.appendingPathComponent("tls_proxy.py")
        try Data(Self.script.utf8).write(to: script)
        let (process, line) = try ChildProcess.startHelper([
            "python3", script.path, folder.appendingPathComponent("server.pem").path,
            folder.appendingPathComponent("server.key").path, String(targetPort),
        ])
        guard let port = Int(line) else {
            process.stop()
            throw POSIXError(.EIO)
        }
        self.process = process
        self.port = port
    }

    /// Ends the proxy, waits for it, and deletes the folder.
    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The proxy's source: Python 3 and its `ssl` module, a thread per direction, blocked while idle.
    private static let script = #"""
        import socket, ssl, sys, threading

        cert, key, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)


        def relay(source, sink):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    sink.sendall(data)
            except Exception:
                pass
            finally:
                for sock in (source, sink):
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except Exception:
                        pass


        def handle(sock):
            try:
                client = context.wrap_socket(sock, server_side=True)
                upstream = socket.create_connection(("127.0.0.1", target))
            except Exception:
                sock.close()
                return
            threading.Thread(target=relay, args=(upstream, client), daemon=True).start()
            relay(client, upstream)


        def accept(listener):
            while True:
                sock, _ = listener.accept()
                threading.Thread(target=handle, args=(sock,), daemon=True).start()


        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print(listener.getsockname()[1], flush=True)
        threading.Thread(target=accept, args=(listener,), daemon=True).start()
        sys.stdin.read()
        """#
}
#endif
