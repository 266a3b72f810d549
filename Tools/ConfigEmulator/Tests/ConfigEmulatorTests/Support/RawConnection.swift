import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP client on loopback for the tests that need bytes exactly as sent and received.
/// It is used by one task at a time, which hands it to a thread of its own only while it waits in ``read(timeout:until:)``.
/// What that thread receives is kept under a lock: TSan does not see the continuation that hands it back
/// as ordering the thread's writes before the task's reads.
final class RawConnection: @unchecked Sendable {
    private var descriptor: Int32
    private struct Inbox {
        var received: [UInt8] = []
        var isClosedByPeer = false
    }
    private let inbox = Protected(Inbox())

    /// The bytes received so far.
    var received: [UInt8] { inbox.withLock { $0.received } }
    /// Whether the peer closed the connection.
    var isClosedByPeer: Bool { inbox.withLock { $0.isClosedByPeer } }

    /// Connects to 127.0.0.1 at `port`.
    init(port: Int) throws {
        descriptor = try connectedLoopbackSocket(port: port)
    }

    deinit {
        close()
    }

    /// Sets the receive buffer small, so that a client that never reads fills up quickly.
    func shrinkReceiveBuffer() {
        var size: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes every byte; a failure (the server closed) is ignored, as a misbehaving client would.
    func send(_ bytes: [UInt8]) {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, flags) }
            if count <= 0 { return }
            offset += count
        }
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Sends a POST with a JSON body.
    func post(_ path: String, json: String, headers: [String: String] = [:]) {
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(json.utf8.count)\r\n\r\n"
        send(head + json)
    }

    /// Reads until `predicate` holds for everything received, the peer closes, or `timeout` passes, on a
    /// thread of its own: a test task waiting here must not hold a thread of the cooperative pool, which the
    /// emulator's clients in the other tests need.
    /// - Returns: Whether the predicate held.
    @discardableResult
    func read(timeout: TimeInterval, until predicate: @escaping @Sendable ([UInt8]) -> Bool) async -> Bool {
        (try? await offThePool { self.readBlocking(timeout: timeout, until: predicate) }) ?? false
    }

    /// Reads until the peer closes or `timeout` passes.
    /// - Returns: Whether the peer closed.
    @discardableResult
    func readToEnd(timeout: TimeInterval) async -> Bool {
        await read(timeout: timeout) { _ in false }
        return isClosedByPeer
    }

    private func readBlocking(timeout: TimeInterval, until predicate: ([UInt8]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !predicate(received) {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, !isClosedByPeer else { return false }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(max(1, remaining * 1000))) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                inbox.withLock { $0.isClosedByPeer = true }
            } else {
                inbox.withLock { $0.received.append(contentsOf: buffer[0..<count]) }
            }
        }
        return true
    }

    /// Whether the bytes received so far contain `text`.
    func hasReceived(_ text: String) -> Bool {
        String(decoding: received, as: UTF8.self).contains(text)
    }

    var text: String { String(decoding: received, as: UTF8.self) }

    /// The status code of the response received, if its status line has arrived.
    var status: Int? {
        let line = text.split(separator: "\r\n", maxSplits: 1).first ?? ""
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
        return Int(parts[1])
    }

    /// Closes the sending side, so that the server sees the end of the request bytes.
    func finishSending() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    func close() {
        if descriptor >= 0 {
            _ = systemClose(descriptor)
            descriptor = -1
        }
    }
}

#if canImport(Glibc)
private let systemSend = Glibc.send
private let systemClose = Glibc.close
#else
private let systemSend = Darwin.send
private let systemClose = Darwin.close
#endif
