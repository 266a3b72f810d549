#if canImport(Glibc) || canImport(Darwin)
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP peer on 127.0.0.1 for the socket client's tests: each accepted connection runs `handler` on its
/// own thread. ``stop()`` closes the listener and every connection and waits for the threads to end.
final class LoopbackServer: Sendable {
    /// One accepted connection, as the handler sees it.
    final class Connection: Sendable {
        private let descriptor: Int32
        private let server: LoopbackServer

        fileprivate init(descriptor: Int32, server: LoopbackServer) {
            self.descriptor = descriptor
            self.server = server
        }

        /// Reads the request's head and its `Content-Length` body; `nil` if the peer closed first.
        func readRequest() -> (head: String, body: Data)? {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                if let end = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                    let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                    let length =
                        head.split(separator: "\r\n").compactMap { line -> Int? in
                            let parts = line.split(separator: ":", maxSplits: 1)
                            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                            return Int(parts[1].trimmingCharacters(in: .whitespaces))
                        }.first ?? 0
                    if received.count - end.upperBound >= length {
                        return (head, Data(received[end.upperBound..<end.upperBound + length]))
                    }
                }
                guard waitReadable(seconds: 5) else { return nil }
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                received += buffer[0..<count]
            }
        }

        /// Sends `text` as UTF-8.
        func send(_ text: String) {
            send(Array(text.utf8))
        }

        /// Sends `bytes`, ignoring a peer that went away.
        func send(_ bytes: [UInt8]) {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { buffer in
                    #if canImport(Glibc)
                    Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                    #else
                    Darwin.send(descriptor, buffer.baseAddress, buffer.count, 0)
                    #endif
                }
                guard count > 0 else { return }
                sent += count
            }
        }

        /// Sends `chunk` again and again, up to `total` bytes, until the peer goes away or takes nothing
        /// for `stallTimeout` seconds; returns how many bytes the peer's socket accepted.
        func flood(_ chunk: [UInt8], total: Int, stallTimeout: Double = 2) -> Int {
            var timeout = timeval(tv_sec: Int(stallTimeout), tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var sent = 0
            while sent < total, !server.isStopping {
                let count = chunk.withUnsafeBytes { buffer in
                    #if canImport(Glibc)
                    Glibc.send(descriptor, buffer.baseAddress, min(buffer.count, total - sent), Int32(MSG_NOSIGNAL))
                    #else
                    Darwin.send(descriptor, buffer.baseAddress, min(buffer.count, total - sent), 0)
                    #endif
                }
                guard count > 0 else { break }
                sent += count
            }
            return sent
        }

        /// Sends each piece after a short pause, so that they arrive as separate reads.
        func sendSlowly(_ pieces: [String], pause: Double = 0.02) {
            for piece in pieces {
                send(piece)
                Thread.sleep(forTimeInterval: pause)
            }
        }

        /// Waits until the peer closes the connection (or the server stops); returns whether it was the peer,
        /// within `seconds`.
        @discardableResult
        func waitForPeerClose(seconds: Double = 5) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline, !server.isStopping {
                guard waitReadable(seconds: 0.05) else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return true }
            }
            return false
        }

        /// Holds the connection open, silent, until the server stops.
        func holdUntilStopped() {
            while !server.isStopping {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }

        private func waitReadable(seconds: Double) -> Bool {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, Int32(seconds * 1000)) > 0
        }
    }

    private struct State {
        var listener: Int32
        var isStopping = false
        var running = 0
        var accepted = 0
        /// The connections whose handler still runs; each is closed under the lock, so that ``stop()`` never
        /// shuts down a descriptor the system has given to something else.
        var open: Set<Int32> = []
    }

    /// The port it listens on.
    let port: Int
    /// The host of its URL: `127.0.0.1` or `[::1]`.
    let host: String
    private let state: Protected<State>
    private let handler: @Sendable (Connection) -> Void
    private let refuses: Bool

    /// Starts listening on 127.0.0.1 (or ::1) with a port the system picks.
    /// - Parameters:
    ///   - ipv6: Whether to listen on ::1 instead of 127.0.0.1.
    ///   - refusing: Whether to bind the port without listening, so that every connection to it is refused
    ///     until ``stop()``; a stopped server's port could meanwhile be given to another test's server.
    ///   - handler: Runs once per accepted connection, on the connection's own thread.
    init(ipv6: Bool = false, refusing: Bool = false, handler: @escaping @Sendable (Connection) -> Void) throws {
        let listener = socket(ipv6 ? AF_INET6 : AF_INET, Self.streamType, 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var one: Int32 = 1
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_storage()
        let length: socklen_t
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, refusing || listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &boundLength) }
        }
        // The port is at the same offset in both address structures.
        let port = withUnsafeBytes(of: &storage) { $0.load(fromByteOffset: 2, as: UInt16.self) }
        self.port = Int(UInt16(bigEndian: port))
        self.host = ipv6 ? "[::1]" : "127.0.0.1"
        self.state = Protected(State(listener: listener, running: refusing ? 0 : 1))
        self.handler = handler
        self.refuses = refusing
        if !refusing {
            let thread = Thread { [self] in acceptLoop(listener) }
            thread.start()
        }
    }

    /// A URL on the server, `http://<host>:<port>/path?q=1`.
    var url: URL { URL(string: "http://\(host):\(port)/path?q=1")! }

    /// How many connections were accepted.
    var acceptedCount: Int { state.withLock(\.accepted) }

    fileprivate var isStopping: Bool { state.withLock(\.isStopping) }

    /// Stops accepting, closes the listener, shuts every connection down (which wakes a handler that waits
    /// on it) and waits up to five seconds for every handler to return: a few milliseconds, so that a test's
    /// `defer` may call it on a thread of the cooperative pool.
    func stop() {
        state.withLock { state in
            guard !state.isStopping else { return }
            state.isStopping = true
            for descriptor in state.open { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
            // The accept loop closes a listening server's listener.
            if refuses { close(state.listener) }
        }
        for _ in 0..<500 where state.withLock(\.running) > 0 {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    private func acceptLoop(_ listener: Int32) {
        defer {
            close(listener)
            state.withLock { $0.running -= 1 }
        }
        while !isStopping {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) > 0 else { continue }
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else { continue }
            state.withLock {
                $0.running += 1
                $0.accepted += 1
                $0.open.insert(descriptor)
            }
            let connection = Connection(descriptor: descriptor, server: self)
            let thread = Thread { [self] in
                handler(connection)
                state.withLock {
                    $0.open.remove(descriptor)
                    close(descriptor)
                    $0.running -= 1
                }
            }
            thread.start()
        }
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamType = SOCK_STREAM
    #endif
}
#endif
