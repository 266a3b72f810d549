#if canImport(Glibc)
public import Foundation

/// An HTTP proxy on 127.0.0.1 for the socket client's proxy tests: a Python 3 script (its standard library,
/// nothing else) that tunnels `CONNECT host:port` both ways and forwards absolute-form requests
/// (`POST http://host:port/path`) in origin form, without their `Proxy-Authorization`. It can require
/// credentials (a `407` otherwise), resolve made-up names to 127.0.0.1 itself (so that a test proves the client
/// never resolves the target: only the proxy can), or misbehave (``Behaviour``). It records every request head
/// it received (``heads``) and every byte a client sent it, tunnelled ones included (``receivedBytes``), in its
/// folder, before it acts on them. It is started off the cooperative pool; ``stop()`` ends it with `SIGTERM` and
/// removes its folder.
///
/// It needs `python3` in `PATH`: a suite that starts it is enabled only when `ChildProcess.areInstalled("python3")`.
public final class HTTPProxyPeer: Sendable {
    /// What the proxy does once it has read (and recorded) a request's head, and checked its credentials.
    public enum Behaviour: String, Sendable, Hashable {
        /// Tunnels `CONNECT` and forwards absolute-form requests.
        case forward
        /// Answers with a `403`.
        case forbid
        /// Closes the connection without answering.
        case close
        /// Never answers, and holds the connection until the client closes it.
        case silent
        /// Answers `CONNECT` with a `200` followed at once by bytes that no server sent.
        case extraBytes = "extra-bytes"
        /// Answers with a `200` whose head is over 64 KiB (one header field of 70,000 bytes), and holds the
        /// connection until the client closes it.
        case hugeHead = "huge-head"
    }

    /// The port it listens on.
    public let port: Int
    private let process: ChildProcess
    private let folder: TemporaryFolder

    private init(port: Int, process: ChildProcess, folder: TemporaryFolder) {
        self.port = port
        self.process = process
        self.folder = folder
    }

    /// Starts a proxy, off the cooperative pool.
    /// - Parameters:
    ///   - behaviour: What it does with each request.
    ///   - credentials: The `user:password` that `Proxy-Authorization: Basic` must carry; none required when `nil`.
    ///   - resolving: Names that the proxy resolves to 127.0.0.1 (compared without case); others it resolves as
    ///     the system does.
    /// - Returns: The proxy, listening.
    /// - Throws: When Python does not start or reports no port within ten seconds.
    public static func start(
        _ behaviour: Behaviour = .forward, requiring credentials: String? = nil, resolving: [String] = []
    ) async throws -> HTTPProxyPeer {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("http_proxy.py")
        let names = resolving.isEmpty ? "-" : resolving.map { $0.lowercased() }.joined(separator: ",")
        let arguments = [folder.url.path, behaviour.rawValue, credentials ?? "-", names]
        return try await offThePool {
            do {
                let (process, port) = try ChildProcess.startPythonServer(Self.script, at: script, arguments: arguments)
                return HTTPProxyPeer(port: port, process: process, folder: folder)
            } catch {
                folder.remove()
                throw error
            }
        }
    }

    /// The proxy's URL, `http://127.0.0.1:<port>`, with `userInfo` (`user:password`) when given.
    /// - Parameter userInfo: The user and password, percent-encoded, or `nil`.
    /// - Returns: The URL's text, as an environment variable holds it.
    public func url(userInfo: String? = nil) -> String {
        "http://\(userInfo.map { "\($0)@" } ?? "")127.0.0.1:\(port)"
    }

    /// The request heads received so far, oldest first, each without its blank line.
    public var heads: [String] {
        let text = String(decoding: (try? Data(contentsOf: record("heads"))) ?? Data(), as: UTF8.self)
        return text.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
    }

    /// Every byte that clients sent the proxy so far, request heads and tunnelled bytes alike.
    public var receivedBytes: Data {
        (try? Data(contentsOf: record("received"))) ?? Data()
    }

    /// Ends the proxy, waits for it to exit, and removes its folder.
    public func stop() {
        process.stop()
        folder.remove()
    }

    private func record(_ name: String) -> URL {
        folder.url.appendingPathComponent(name)
    }

    /// The proxy's source: Python 3's standard library, nothing else.
    private static let script = #"""
        import base64, socket, sys, threading, urllib.parse

        folder, behaviour, credentials, names = sys.argv[1:5]
        resolved = set() if names == "-" else set(names.split(","))
        lock = threading.Lock()


        def record(name, data):
            with lock:
                with open(folder + "/" + name, "ab") as sink:
                    sink.write(data)


        def read_head(sock):
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    return None, b""
                record("received", chunk)
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            return head, rest


        def relay(source, sink, recording):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    if recording:
                        record("received", data)
                    sink.sendall(data)
            except Exception:
                pass
            finally:
                for end in (source, sink):
                    try:
                        end.shutdown(socket.SHUT_RDWR)
                    except Exception:
                        pass


        def connect(host, port):
            if host.lower() in resolved:
                host = "127.0.0.1"
            return socket.create_connection((host, port), timeout=10)


        def serve(client):
            client.settimeout(30)
            head, rest = read_head(client)
            if head is None:
                return
            record("heads", head + b"\r\n\r\n")
            if behaviour == "close":
                return
            if behaviour == "silent":
                while client.recv(65536):
                    pass
                return
            lines = head.split(b"\r\n")
            method, target, _ = lines[0].split(b" ", 2)
            fields = {}
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                fields[name.strip().lower()] = value.strip()
            if credentials != "-":
                expected = b"Basic " + base64.b64encode(credentials.encode())
                if fields.get(b"proxy-authorization") != expected:
                    client.sendall(
                        b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                        b"Proxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 6\r\n\r\ndenied"
                    )
                    return
            if behaviour == "huge-head":
                client.sendall(b"HTTP/1.1 200 OK\r\nX-Pad: " + b"a" * 70000 + b"\r\n\r\n")
                while client.recv(65536):
                    pass
                return
            if behaviour == "forbid":
                client.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                return
            if method == b"CONNECT":
                host, _, port = target.decode().rpartition(":")
                upstream = connect(host.strip("[]"), int(port))
                answer = b"HTTP/1.1 200 Connection established\r\n\r\n"
                if behaviour == "extra-bytes":
                    answer += b"unexpected"
                client.sendall(answer)
                if rest:
                    upstream.sendall(rest)
            else:
                url = urllib.parse.urlsplit(target.decode())
                upstream = connect(url.hostname, url.port or 80)
                path = (url.path or "/") + ("?" + url.query if url.query else "")
                kept = [line for line in lines[1:] if not line.lower().startswith(b"proxy-authorization:")]
                first = method + b" " + path.encode() + b" HTTP/1.1"
                upstream.sendall(b"\r\n".join([first] + kept) + b"\r\n\r\n" + rest)
            upstream.settimeout(30)
            threading.Thread(target=relay, args=(upstream, client, False), daemon=True).start()
            relay(client, upstream, True)
            upstream.close()


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
