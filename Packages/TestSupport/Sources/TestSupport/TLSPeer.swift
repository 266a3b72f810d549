#if canImport(Glibc)
public import Foundation

/// A TLS peer on 127.0.0.1, the one Python TLS peer of the tests and the benchmarks: a Python 3 script (its
/// `ssl` module, nothing else) that is started with a mode and a certificate, binds a port the system picks
/// and prints it on its standard output. The socket client's https tests use its answering modes; the
/// benchmarks' https variants put it in front of a plain server with ``Mode/relay(to:)``. It is started off
/// the cooperative pool (Python takes a while to start on a busy machine), and ``stop()`` ends it with
/// `SIGTERM`.
///
/// It needs `python3` in `PATH`, and its certificates `openssl` (``TLSTestCertificates``): a suite that
/// starts it is enabled only when `ChildProcess.areInstalled("python3", "openssl")`, so that it is reported
/// skipped, with that message, where they are missing.
public final class TLSPeer: Sendable {
    /// What the peer does with each connection.
    public enum Mode: Sendable, Hashable {
        /// Answers each request with a `Content-Length` body: the request's head, a blank line, its body.
        case echo
        /// Answers with a chunked event stream, `data: 1` then `data: 2` in pieces, then stays silent and open.
        case stream
        /// Answers with an HTTP/1.0 event stream in pieces, then closes with `close_notify`.
        case closeStream
        /// Answers like ``echo``, but speaks TLS 1.1 at most.
        case tls11
        /// Answers like ``echo``, over TLS 1.2 with anonymous suites only (`aNULL`): it presents no certificate,
        /// so only a client whose suites and security level allow them (security level 0) shakes hands.
        case anonymous
        /// Reads the client's hello, sends half of its own first flight, and closes.
        case midHandshake
        /// Shakes hands, reads the request, sends a head promising 100 bytes, half a record of body, and closes.
        case midRecord
        /// Relays each connection's decrypted bytes to a plain TCP port on 127.0.0.1, and its answers back: a
        /// TLS front for a server that speaks plain HTTP (the emulator, a flood server), a thread per direction,
        /// blocked while idle.
        case relay(to: Int)

        /// The script's arguments that select the mode.
        fileprivate var arguments: [String] {
            switch self {
            case .echo: ["echo"]
            case .stream: ["stream"]
            case .closeStream: ["close-stream"]
            case .tls11: ["tls1.1"]
            case .anonymous: ["anonymous"]
            case .midHandshake: ["mid-handshake"]
            case .midRecord: ["mid-record"]
            case .relay(let port): ["relay", String(port)]
            }
        }
    }

    /// The port it listens on.
    public let port: Int
    private let process: ChildProcess

    private init(port: Int, process: ChildProcess) {
        self.port = port
        self.process = process
    }

    /// Starts a peer, off the cooperative pool.
    /// - Parameters:
    ///   - mode: What it does with each connection.
    ///   - certificates: The folder of certificates; the script is written there too.
    ///   - server: The certificate it presents (none in ``Mode/anonymous``).
    /// - Returns: The peer, listening.
    /// - Throws: When Python does not start or reports no port within ten seconds.
    public static func start(
        _ mode: Mode, certificates: TLSTestCertificates, server: TLSTestCertificates.Server = .valid
    ) async throws -> TLSPeer {
        let script = certificates.folder.appendingPathComponent("tls_peer.py")
        let arguments = [certificates.path(of: server), certificates.keyPath(of: server)] + mode.arguments
        return try await offThePool {
            let (process, port) = try ChildProcess.startPythonServer(Self.script, at: script, arguments: arguments)
            return TLSPeer(port: port, process: process)
        }
    }

    /// An https URL on the peer, `https://<host>:<port>/path?q=1`.
    /// - Parameter host: The URL's host, which the certificate must match.
    /// - Returns: The URL.
    public func url(host: String = "127.0.0.1") -> URL {
        URL(string: "https://\(host):\(port)/path?q=1")!
    }

    /// Ends the peer and waits for it to exit.
    public func stop() {
        process.stop()
    }

    /// The peer's source: Python 3 and its `ssl` module, nothing else.
    private static let script = #"""
        import socket, ssl, sys, threading, time, warnings

        cert, key, mode = sys.argv[1], sys.argv[2], sys.argv[3]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        if mode == "anonymous":
            context.set_ciphers("aNULL:@SECLEVEL=0")
            context.maximum_version = ssl.TLSVersion.TLSv1_2
            mode = "echo"
        else:
            if cert.endswith("weak-key.pem"):
                # This side's security level must let it present an RSA-1024 key; the client's decides.
                context.set_ciphers("DEFAULT:@SECLEVEL=0")
            context.load_cert_chain(cert, key)
        if mode == "tls1.1":
            warnings.simplefilter("ignore")
            context.set_ciphers("DEFAULT:@SECLEVEL=0")
            context.minimum_version = ssl.TLSVersion.TLSv1
            context.maximum_version = ssl.TLSVersion.TLSv1_1
            mode = "echo"


        def read_request(recv):
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = recv(65536)
                if not chunk:
                    return None
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            while len(body) < length:
                chunk = recv(65536)
                if not chunk:
                    return None
                body += chunk
            return head, body


        class MemoryTLS:
            """TLS over memory buffers, so that the peer can send exactly the bytes it wants."""

            def __init__(self, sock):
                self.sock = sock
                self.incoming = ssl.MemoryBIO()
                self.outgoing = ssl.MemoryBIO()
                self.tls = context.wrap_bio(self.incoming, self.outgoing, server_side=True)

            def pump(self):
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise EOFError()
                self.incoming.write(chunk)

            def handshake(self):
                while True:
                    try:
                        self.tls.do_handshake()
                        self.sock.sendall(self.outgoing.read())
                        return
                    except ssl.SSLWantReadError:
                        self.sock.sendall(self.outgoing.read())
                        self.pump()

            def recv(self, size):
                while True:
                    try:
                        return self.tls.read(size)
                    except ssl.SSLWantReadError:
                        self.pump()


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
                for end in (source, sink):
                    try:
                        end.shutdown(socket.SHUT_RDWR)
                    except Exception:
                        pass


        def hold(conn):
            while True:
                if not conn.recv(65536):
                    return


        def serve(sock):
            # A relayed stream may stay idle for as long as its benchmark measures it.
            sock.settimeout(None if mode == "relay" else 30)
            if mode == "mid-handshake":
                peer = MemoryTLS(sock)
                while True:
                    peer.pump()
                    try:
                        peer.tls.do_handshake()
                    except ssl.SSLWantReadError:
                        pass
                    flight = peer.outgoing.read()
                    if flight:
                        sock.sendall(flight[: len(flight) // 2])
                        return
            if mode == "mid-record":
                peer = MemoryTLS(sock)
                peer.handshake()
                read_request(peer.recv)
                peer.tls.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
                sock.sendall(peer.outgoing.read())
                time.sleep(0.05)
                peer.tls.write(b"x" * 60)
                record = peer.outgoing.read()
                sock.sendall(record[: len(record) // 2])
                return
            conn = context.wrap_socket(sock, server_side=True)
            if mode == "relay":
                upstream = socket.create_connection(("127.0.0.1", int(sys.argv[4])))
                threading.Thread(target=relay, args=(upstream, conn), daemon=True).start()
                relay(conn, upstream)
                upstream.close()
            elif mode == "echo":
                while True:
                    request = read_request(conn.recv)
                    if request is None:
                        return
                    head, body = request
                    answer = head + b"\r\n\r\n" + body
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(answer) + answer)
            elif mode == "stream":
                read_request(conn.recv)
                pieces = [
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
                    b"9\r\ndata:", b" 1\n\n\r\n", b"9\r\ndata: 2\n", b"\n\r\n",
                ]
                for piece in pieces:
                    conn.sendall(piece)
                    time.sleep(0.02)
                hold(conn)
            elif mode == "close-stream":
                read_request(conn.recv)
                head = b"HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
                for piece in [head, b"data: 1\n\n", b"data: 2\n\n"]:
                    conn.sendall(piece)
                    time.sleep(0.02)
                conn.unwrap()


        def handle(sock):
            try:
                serve(sock)
            except Exception:
                pass
            finally:
                sock.close()


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
