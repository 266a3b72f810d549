internal import Foundation

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A connected or listening TCP socket. The descriptor is closed once, under `lock`, so that another
/// thread that shuts it down or peeks at it never touches a number the system has given to a new socket.
final class Socket: @unchecked Sendable {
    // @unchecked Sendable: `descriptor` is read and invalidated only while `lock` is held;
    // blocking calls use a copy taken under it and are woken by `shutdown()`.
    private let lock = NSLock()
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    deinit {
        close()
    }

    /// Opens a listening IPv4 socket.
    /// - Returns: The socket and the port it is bound to (the system's choice when `port` is 0).
    static func listen(host: String, port: Int, backlog: Int32) throws -> (Socket, Int) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketError("socket") }
        let listener = Socket(descriptor: fd)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        let name = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, name, &address.sin_addr) == 1 else {
            throw SocketError("inet_pton(\(host))", code: EINVAL)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw SocketError("bind(\(host):\(port))") }
        guard systemListen(fd, backlog) == 0 else { throw SocketError("listen") }
        var boundAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw SocketError("getsockname") }
        return (listener, Int(UInt16(bigEndian: boundAddress.sin_port)))
    }

    /// Waits up to `timeout` seconds until one of `sockets` is readable, closed or failed.
    /// - Returns: For each socket, whether it is.
    static func pollReadable(_ sockets: [Socket], timeout: TimeInterval) -> [Bool] {
        var entries = sockets.map { pollfd(fd: $0.currentDescriptor() ?? -1, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&entries, nfds_t(entries.count), Int32(timeout * 1000))
        guard ready > 0 else { return Array(repeating: false, count: sockets.count) }
        return entries.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
    }

    /// Accepts a pending connection without blocking.
    /// - Returns: The accepted socket, or `nil` when none is pending.
    func acceptNow() throws -> Socket? {
        guard let fd = currentDescriptor() else { throw SocketError("accept", code: EBADF) }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return nil }
        let client = systemAccept(fd, nil, nil)
        if client < 0 {
            if errno == EAGAIN || errno == EINTR || errno == ECONNABORTED || errno == EWOULDBLOCK { return nil }
            throw SocketError("accept")
        }
        return Socket(descriptor: client)
    }

    /// Sets how long a blocking read or write may wait before it fails.
    func setTimeouts(read: TimeInterval, write: TimeInterval) {
        guard let fd = currentDescriptor() else { return }
        for (option, seconds) in [(SO_RCVTIMEO, read), (SO_SNDTIMEO, write)] {
            var value = timeval(
                tv_sec: Int(seconds),
                tv_usec: .init(Int((seconds - seconds.rounded(.down)) * 1_000_000))
            )
            setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Sends small writes at once instead of coalescing them.
    func setNoDelay() {
        guard let fd = currentDescriptor() else { return }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Reads what is available, blocking up to the read timeout.
    /// - Returns: The number of bytes read; 0 at end of stream.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let fd = currentDescriptor() else { return 0 }
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw SocketError("recv")
        }
    }

    /// Writes every byte, blocking up to the write timeout for each partial write.
    func send(_ bytes: some Collection<UInt8>) throws {
        guard let fd = currentDescriptor() else { throw SocketError("send", code: EBADF) }
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        let array = Array(bytes)
        var offset = 0
        try array.withUnsafeBytes { raw in
            while offset < raw.count {
                let count = systemSend(fd, raw.baseAddress! + offset, raw.count - offset, flags)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw SocketError("send")
                }
                offset += count
            }
        }
    }

    /// Whether the peer has closed its side or the connection failed, judged without blocking.
    /// Bytes the peer sent are read and discarded: a streaming client has nothing more to say.
    func peerHasClosed() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard descriptor >= 0 else { return true }
        var scratch = [UInt8](repeating: 0, count: 512)
        while true {
            let count = scratch.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 { continue }
            if count == 0 { return true }
            return !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        }
    }

    /// The descriptor to poll, or `nil` once closed.
    func currentDescriptor() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        return descriptor >= 0 ? descriptor : nil
    }

    /// Stops reads and writes in both directions, waking any thread blocked on them.
    func shutdown() {
        lock.lock()
        defer { lock.unlock() }
        if descriptor >= 0 {
            _ = systemShutdown(descriptor, Int32(SHUT_RDWR))
        }
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        if descriptor >= 0 {
            _ = systemClose(descriptor)
            descriptor = -1
        }
    }
}

#if canImport(Glibc)
private let systemListen = Glibc.listen
private let systemAccept = Glibc.accept
private let systemSend = Glibc.send
private let systemShutdown = Glibc.shutdown
private let systemClose = Glibc.close
#else
private let systemListen = Darwin.listen
private let systemAccept = Darwin.accept
private let systemSend = Darwin.send
private let systemShutdown = Darwin.shutdown
private let systemClose = Darwin.close
#endif
