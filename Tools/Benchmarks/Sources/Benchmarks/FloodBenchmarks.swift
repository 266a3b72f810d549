#if os(Linux)
@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigStore
import Foundation
import ModelTestSupport
import TestSupport

/// A server, in a Python 3 process of its own (so that its memory is not the client's), that answers each
/// stream with an event-stream head and one config set, then floods comment lines as fast as the client reads
/// them, in writes of about 64 KiB of one line repeated (the line is the third argument); it prints its port when it
/// listens. With `release`, each connection gets the set and is then held open.
private let floodServer = #"""
    import socket, sys, threading
    SET = b'data: {"kind":"full","configs":{"flag":{"type":"boolean","value":"true"}}}\n\n'
    HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
    LINE = sys.argv[3].encode().decode("unicode_escape").encode()
    FLOOD = LINE * (65536 // len(LINE))
    flood = sys.argv[1] == "flood"
    sent = 0
    posts = 0

    def serve(connection):
        try:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                request += chunk
            if not request.startswith(b"POST /client/sse/v1"):
                global posts
                posts += 1
                with open(sys.argv[2] + ".posts", "w") as counter:
                    counter.write(str(posts))
                connection.sendall(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            connection.sendall(HEAD + SET)
            if flood:
                global sent
                while True:
                    connection.sendall(FLOOD)
                    sent += len(FLOOD)
                    if sent % (len(FLOOD) * 100) == 0:
                        with open(sys.argv[2], "w") as counter:
                            counter.write(str(sent))
            else:
                while connection.recv(65536):
                    pass
        except OSError:
            pass
        finally:
            connection.close()

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    print(listener.getsockname()[1], flush=True)
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()
    """#

/// The server above, started for one benchmark; ``stop()`` ends it and deletes its script.
private final class FloodServer {
    let port: Int
    private let process: ChildProcess
    private let folder: URL

    /// Starts the server.
    /// - Parameters:
    ///   - mode: `flood` or `release`.
    ///   - line: The line a flood repeats, with its line end, escaped as in Python (`:\n`).
    init(_ mode: String, line: String = #": keep-alive\n"#) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-flood-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        (process, port) = try ChildProcess.startPythonServer(
            floodServer, at: folder.appendingPathComponent("flood.py"),
            arguments: [mode, folder.appendingPathComponent("sent").path, line])
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The requests other than streams (telemetry batches) the server has answered.
    var otherRequests: Int {
        (try? String(contentsOf: folder.appendingPathComponent("sent.posts"), encoding: .utf8)).flatMap { Int($0) } ?? 0
    }

    /// The bytes of comments the server has sent so far over all its connections, counted every 6.5 MB.
    var bytesSent: Int64 {
        (try? String(contentsOf: folder.appendingPathComponent("sent"), encoding: .utf8)).flatMap { Int64($0) } ?? 0
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The resident memory of this process, in bytes, from `/proc/self/statm`.
private func residentBytes() -> Int64 {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int64($0) })
    else { return 0 }
    return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
}

/// The number of open file descriptors of this process, from `/proc/self/fd`.
private func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
}

/// A streaming client of `baseURL`, initialized (the server sends its set at once).
private func streamingClient(of baseURL: URL, telemetry: Bool) async -> ConfigDirectorClient {
    let client = try! ConfigDirectorClient(
        clientSDKKey: "flood-sdk-key",
        options: ConfigDirectorClientOptions(
            connection: ConnectionOptions(mode: .streaming, timeout: 10, baseURL: baseURL),
            logger: SilentLogger(),
            caching: CachingOptions(enabled: false, provider: InMemoryCachingProvider())
        ),
        environment: ClientEnvironment(
            telemetry: telemetry ? .service : .disabled, lifecycleObserver: ManualLifecycleObserver())
    )
    await client.initialize(context: ConfigDirectorContext(id: "user-1"))
    return client
}

/// The lines benchmark 14 floods: a keep-alive comment, the shortest comment, and a blank line (an event with no
/// data, dispatched and dropped).
private let floodShapes = [("keep-alive", #": keep-alive\n"#), ("colon", #":\n"#), ("blank", #"\n"#)]

/// 14. A comment flood (issues 25 and 43): the resident memory of a streaming client whose server floods lines
/// that carry nothing (keep-alive comments, two-byte comments, blank lines) as fast as it reads them, above the
/// process before the client, over http and (through benchmark 8's TLS front) https; and what is still resident
/// a second after the client closed.
func benchmarkCommentFlood() async {
    let seconds = isQuick ? 5.0 : 20.0
    print("\n== 14. Line flood: resident memory of a streaming client during \(Int(seconds)) s of each flood")
    let idle = residentBytes()
    var worst: Int64 = 0
    for (shape, line) in floodShapes {
        guard let server = try? FloodServer("flood", line: line) else {
            print("  MISS: the flood server (python3) could not start")
            report.target("flood.rss", "the flood server started", pass: false)
            return
        }
        defer { server.stop() }
        for scheme in ["http", "https"] {
            guard let held = await flood(server, scheme: scheme, shape: shape, seconds: seconds) else { continue }
            worst = max(worst, held.peak - idle, held.after - idle)
            print(
                "  \(shape) over \(scheme): \(megabytes(held.peak - idle)) above the process before the first client"
                    + " at the peak, \(megabytes(held.after - idle)) a second after it closed; "
                    + String(
                        format: "%.0f MB read, %.0f MB/s", Double(held.bytesRead) / 1e6,
                        Double(held.bytesRead) / 1e6 / seconds)
            )
            report.figure("flood.\(shape).\(scheme).rss_extra_mb", Double(held.peak - idle) / 1_048_576)
            report.figure("flood.\(shape).\(scheme).rss_after_mb", Double(held.after - idle) / 1_048_576)
            report.figure("flood.\(shape).\(scheme).read_mb_per_s", Double(held.bytesRead) / 1e6 / seconds)
        }
    }
    report.target(
        "flood.rss", "a flood of empty lines holds under 64 MB above the process before it, and lets it go after",
        pass: worst < 64 << 20)
}

/// Floods one streaming client for `seconds`: its process's peak resident memory, that memory a second after the
/// client closed, and the bytes the server sent it; `nil` when the TLS front for `https` could not start.
private func flood(_ server: FloodServer, scheme: String, shape: String, seconds: Double) async
    -> (peak: Int64, after: Int64, bytesRead: Int64)?
{
    var baseURL = server.baseURL
    var front: (peer: TLSPeer, certificates: TLSTestCertificates)?
    if scheme == "https" {
        guard let started = await tlsFront(forwardingTo: server.port) else {
            print("  the TLS front did not start (python3 and openssl are needed): https not measured")
            return nil
        }
        baseURL = URL(string: "https://127.0.0.1:\(started.peer.port)")!
        front = started
    }
    let sentBefore = server.bytesSent
    let client = await streamingClient(of: baseURL, telemetry: false)
    var peak = residentBytes()
    let end = nowNanoseconds() + UInt64(seconds * 1e9)
    while nowNanoseconds() < end {
        peak = max(peak, residentBytes())
        try? await Task.sleep(nanoseconds: 50_000_000)
    }
    let sent = server.bytesSent - sentBefore
    blackHole(client.value(for: "flag", default: false))
    await client.closeAndWait()
    front?.peer.stop()
    front?.certificates.remove()
    try? await Task.sleep(nanoseconds: 1_000_000_000)
    return (peak, residentBytes(), sent)
}

/// 15. Releasing connected clients (issue 25, item 12): the threads and sockets in use while 1,000 streaming
/// clients, each connected and holding a telemetry batch, are released at once, and what is left after it.
func benchmarkReleaseConnected() async {
    let count = isQuick ? 200 : 1_000
    print("\n== 15. Releasing \(count) connected streaming clients at once")
    guard let server = try? FloodServer("release") else {
        print("  MISS: the server (python3) could not start")
        report.target("release.threads", "releasing connected clients starts fewer than 32 threads", pass: false)
        return
    }
    defer { server.stop() }
    var clients: [ConfigDirectorClient] = []
    for _ in 0..<count {
        let client = await streamingClient(of: server.baseURL, telemetry: true)
        blackHole(client.value(for: "flag", default: false))
        clients.append(client)
    }
    try? await Task.sleep(nanoseconds: 200_000_000)
    let baseThreads = threadCount() ?? 0
    let baseDescriptors = openDescriptors()
    let peak = Protected((threads: baseThreads, descriptors: baseDescriptors))
    let sampling = Protected(true)
    let sampler = Thread {
        while sampling.withLock({ $0 }) {
            let now = (threadCount() ?? 0, openDescriptors())
            peak.withLock { $0 = (max($0.threads, now.0), max($0.descriptors, now.1)) }
            usleep(500)
        }
    }
    sampler.start()
    clients = []
    try? await Task.sleep(nanoseconds: 3_000_000_000)
    sampling.withLock { $0 = false }
    let (peakThreads, peakDescriptors) = peak.withLock { $0 }
    let afterThreads = threadCount() ?? 0
    let afterDescriptors = openDescriptors()
    print(
        "  with \(count) clients connected: \(baseThreads) threads, \(baseDescriptors) descriptors; while released:"
            + " \(peakThreads - baseThreads) more threads and \(peakDescriptors - baseDescriptors) more descriptors"
            + " at the peak; 3 s later: \(afterThreads) threads, \(afterDescriptors) descriptors;"
            + " \(server.otherRequests) telemetry batches arrived"
    )
    report.figure("release.telemetry_batches", Double(server.otherRequests))
    report.figure("release.extra_threads", Double(peakThreads - baseThreads))
    report.figure("release.extra_descriptors", Double(peakDescriptors - baseDescriptors))
    report.target(
        "release.threads", "releasing connected clients starts fewer than 32 threads",
        pass: peakThreads - baseThreads < 32)
}
#endif
