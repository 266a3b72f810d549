#if canImport(Glibc)
import Foundation

/// Debian's `tinyproxy` on 127.0.0.1, a real HTTP proxy that the SDK does not control, for the socket client's
/// proxy tests: it tunnels `CONNECT` and forwards absolute-form requests, and with credentials requires
/// `Proxy-Authorization: Basic` (`BasicAuth`). A Python 3 wrapper picks a free port, writes the configuration,
/// runs `tinyproxy -d` in the foreground, prints the port once it accepts connections, and ends it when the
/// wrapper's standard input closes or it receives `SIGTERM` (``stop()``).
///
/// It needs `tinyproxy` and `python3` in `PATH` (`Tests/Proxy/setup.sh` installs Debian's): a suite that starts
/// it is enabled only when `ChildProcess.areInstalled("tinyproxy", "python3")`.
public final class TinyProxy: Sendable {
    /// The port it listens on.
    public let port: Int
    private let process: ChildProcess
    private let folder: TemporaryFolder

    private init(port: Int, process: ChildProcess, folder: TemporaryFolder) {
        self.port = port
        self.process = process
        self.folder = folder
    }

    /// Starts `tinyproxy`, off the cooperative pool.
    /// - Parameter credentials: The user and password that it requires, or `nil` for none.
    /// - Returns: The proxy, accepting connections.
    /// - Throws: When it does not start or accept connections within ten seconds.
    public static func start(requiring credentials: (user: String, password: String)? = nil) async throws -> TinyProxy {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("tinyproxy_wrapper.py")
        let auth = credentials.map { "BasicAuth \($0.user) \($0.password)" } ?? ""
        return try await offThePool {
            do {
                let (process, port) = try ChildProcess.startPythonServer(
                    Self.script, at: script, arguments: [folder.url.path, auth])
                return TinyProxy(port: port, process: process, folder: folder)
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

    /// Ends `tinyproxy` and its wrapper, waits for the wrapper to exit, and removes the folder.
    public func stop() {
        process.stop()
        folder.remove()
    }

    /// The wrapper's source: Python 3's standard library, nothing else.
    private static let script = #"""
        import os, signal, socket, subprocess, sys, threading, time

        folder, auth = sys.argv[1], sys.argv[2]
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        config = os.path.join(folder, "tinyproxy.conf")
        with open(config, "w") as out:
            out.write("Port %d\nListen 127.0.0.1\nTimeout 30\nAllow 127.0.0.1\nMaxClients 20\nLogLevel Critical\n" % port)
            if auth:
                out.write(auth + "\n")
        child = subprocess.Popen(
            ["tinyproxy", "-d", "-c", config], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


        def end(*_):
            child.terminate()
            try:
                child.wait(5)
            except Exception:
                child.kill()
            os._exit(0)


        signal.signal(signal.SIGTERM, end)
        deadline = time.time() + 10
        while time.time() < deadline and child.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            end()
        print(port, flush=True)
        threading.Thread(target=lambda: (sys.stdin.read(), end()), daemon=True).start()
        child.wait()
        """#
}
#endif
