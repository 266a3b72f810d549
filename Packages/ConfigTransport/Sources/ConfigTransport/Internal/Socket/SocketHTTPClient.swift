#if canImport(Glibc)
@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation
internal import Glibc

/// The HTTP layer over POSIX sockets: HTTP/1.1, one connection per request, with TLS for `https`. Linux only
/// (compiled where `Glibc` imports): Apple platforms send every request to `URLSession`.
///
/// On Linux, swift-corelibs-foundation's `URLSession` busy-loops while a response stays open, so an idle
/// streaming connection would spin a core; this client waits in `poll(2)` instead and costs nothing while
/// the server is silent. ``PlatformHTTPClient`` routes `http` requests to it where `URLSession` is
/// corelibs', and `https` requests too when the system's OpenSSL loads (``OpenSSLLibrary``).
///
/// Each exchange runs on its own thread (never on Swift's cooperative pool): it resolves the host with
/// `getaddrinfo` (IPv4 and IPv6), connects, for `https` shakes hands over TLS (``TLSConnection``), writes the
/// request with `Host`, `Content-Length` and `Connection: close`, then hands on the head and the body as it
/// arrives (chunked, `Content-Length`, or until the connection closes), through a ``BoundedParts`` buffer:
/// the thread reads the socket only as fast as the exchange's reader takes the parts out. It behaves like
/// ``URLSessionHTTPClient``: redirects are not followed (the 3xx head is handed on), the request's timeout
/// bounds the connect and the handshake together, then every wait for the next byte (`URLError(.timedOut)`),
/// network failures throw `URLError`, ``HTTPExchange/cancel`` ends the parts with `URLError(.cancelled)`, and
/// ``shutdown()`` ends every exchange with `CancellationError`.
///
/// TLS verifies the certificate chain against the system's trust store (``TLSContext``) and the URL's host,
/// requires TLS 1.2 or newer, and cannot be told to trust anything else but by tests. A refused certificate
/// fails with `URLError(.serverCertificateUntrusted)` or `URLError(.serverCertificateHasBadDate)`.
///
/// It goes through the HTTP proxy that the environment sets (``ProxySettings``: `https_proxy`, `http_proxy`,
/// `no_proxy` and their kin, as curl reads them). For `https` it opens a tunnel with `CONNECT host:port` (the
/// proxy resolves the host; only that line and `Proxy-Authorization` reach the proxy in the clear), then runs
/// TLS through it to the URL's host exactly as without a proxy: same SNI, the certificate verified against the
/// URL's host, never the proxy. For `http` it sends the request in absolute form (`POST http://host/path`) to
/// the proxy, with `Proxy-Authorization`. The request's timeout bounds the connect to the proxy, the `CONNECT`
/// exchange and the handshake together. A proxy that answers `407` fails the request with
/// `URLError(.userAuthenticationRequired)`; one that refuses the tunnel otherwise, with
/// `URLError(.cannotConnectToHost)` and its status. The first request through each proxy logs one info line
/// naming it, its credentials redacted.
///
/// - Important: Without OpenSSL, an `https` URL fails with `URLError(.unsupportedURL)`, as does any scheme but
///   `http` and `https`. Responses are not decompressed (no `Accept-Encoding` is sent),
///   and there are no cookies, caching or connection reuse.
final class SocketHTTPClient: HTTPClient {
    private let logger: any ConfigDirectorLogger
    private let registry = ExchangeRegistry()
    /// The proxies that the environment sets.
    private let proxySettings: ProxySettings
    /// The proxies (and the unsupported settings) already logged, by their log line, so that each is logged once.
    private let announced = Locked<Set<String>>([])

    /// Returns the TLS settings, made on the first `https` request and kept, or why there are none.
    private let tlsContext: @Sendable () throws -> TLSContext

    /// Creates a client that verifies `https` servers against the system's trust store, and goes through the
    /// proxies that the process's environment sets.
    /// - Parameter logger: Where connection failures are logged, at debug level; never bodies or keys.
    convenience init(logger: any ConfigDirectorLogger) {
        self.init(logger: logger, openSSL: OpenSSLLibrary.shared)
    }

    /// Creates a client with the OpenSSL given, the proxies given, and one more trusted root for a test's server.
    /// - Parameters:
    ///   - logger: Where connection failures are logged, at debug level; never bodies or keys.
    ///   - openSSL: The loaded OpenSSL, or why it did not load (then `https` fails with `unsupportedURL`).
    ///   - proxySettings: The proxies to go through; the process's environment's by default.
    ///   - additionalTrustedRoot: The path of a PEM file of certificates to trust besides the system's; tests only.
    init(
        logger: any ConfigDirectorLogger,
        openSSL: Result<OpenSSLLibrary, OpenSSLLibrary.LoadFailure>,
        proxySettings: ProxySettings = ProxySettings(),
        additionalTrustedRoot: String? = nil
    ) {
        self.logger = logger
        self.proxySettings = proxySettings
        let cache = Locked<TLSContext?>(nil)
        tlsContext = {
            let library: OpenSSLLibrary
            switch openSSL {
            case .success(let loaded):
                library = loaded
            case .failure(let failure):
                throw URLError(.unsupportedURL, description: "https needs OpenSSL, which did not load: \(failure)")
            }
            return try cache.withLock { cached in
                if let cached { return cached }
                let context = try TLSContext(library: library, additionalTrustedRoot: additionalTrustedRoot)
                cached = context
                return context
            }
        }
    }

    /// Starts a request on its own thread.
    /// - Parameter request: The request; its URL must be `http` or `https`.
    /// - Returns: The exchange.
    func start(_ request: HTTPRequest) -> HTTPExchange {
        // The exchange, for the buffer to end when its reader goes away; let go once the thread ends.
        let running = Locked<SocketExchange?>(nil)
        let parts = BoundedParts(onAbandoned: { running.withLock { $0 }?.end(throwing: URLError(.cancelled)) })
        let registry = self.registry
        let proxy = proxy(for: request.url)
        let exchange = SocketExchange(
            request: request, parts: parts, logger: logger, tlsContext: tlsContext, proxy: proxy
        )
        guard let id = registry.add(exchange) else {
            parts.finish(throwing: CancellationError())
            return HTTPExchange(parts: parts.stream, cancel: {})
        }
        running.withLock { $0 = exchange }
        let thread = Thread {
            exchange.run()
            running.withLock { $0 = nil }
            registry.remove(id)
        }
        thread.name = "ConfigDirector HTTP"
        thread.start()
        return HTTPExchange(parts: parts.stream, cancel: { exchange.end(throwing: URLError(.cancelled)) })
    }

    /// The proxy that a request to `url` goes through, if any; logs the first use of each proxy at info level,
    /// its credentials redacted, and a proxy setting that is not supported as a warning, once each.
    private func proxy(for url: URL) -> ProxySettings.Proxy? {
        let route = proxySettings.route(for: url)
        let line: (level: ConfigDirectorLogLevel, message: String, proxy: ProxySettings.Proxy?)
        switch route {
        case .direct:
            return nil
        case .proxy(let proxy):
            line = (.info, "Requests go through the HTTP proxy \(proxy.redactedText) (from \(proxy.variable)).", proxy)
        case .unsupported(let reason):
            line = (.warn, reason, nil)
        }
        let isFirst = announced.withLock { $0.insert(line.message).inserted }
        if isFirst, line.level == .info { logger.info(line.message) }
        if isFirst, line.level == .warn { logger.warn(line.message) }
        return line.proxy
    }

    /// Ends every exchange with `CancellationError`; later requests fail at once.
    func shutdown() {
        for exchange in registry.shutdown() {
            exchange.end(throwing: CancellationError())
        }
    }

    /// How many exchanges still have a running thread, for tests.
    var runningExchangeCount: Int { registry.count }
}

/// The exchanges whose threads run, so that ``SocketHTTPClient/shutdown()`` reaches them all.
private final class ExchangeRegistry: Sendable {
    private struct State {
        var exchanges: [Int: SocketExchange] = [:]
        var nextID = 0
        var isShutdown = false
    }

    private let state = Locked(State())

    var count: Int { state.withLock { $0.exchanges.count } }

    /// Registers `exchange`; `nil` once shut down.
    func add(_ exchange: SocketExchange) -> Int? {
        state.withLock { state in
            guard !state.isShutdown else { return nil }
            state.nextID += 1
            state.exchanges[state.nextID] = exchange
            return state.nextID
        }
    }

    func remove(_ id: Int) {
        _ = state.withLock { $0.exchanges.removeValue(forKey: id) }
    }

    /// Marks the registry shut down and returns the exchanges still running.
    func shutdown() -> [SocketExchange] {
        state.withLock { state in
            state.isShutdown = true
            return Array(state.exchanges.values)
        }
    }
}

/// The open connection of an exchange: its socket and, for `https`, the TLS over it.
private struct OpenConnection {
    /// The connected, non-blocking socket.
    let socket: Int32
    /// The TLS connection over `socket`, after its handshake; `nil` for plain `http`.
    var tls: TLSConnection?
}

/// One request and its response, read on a dedicated thread.
private final class SocketExchange: Sendable {
    private struct State {
        /// The connection's descriptor while it is open; only the exchange's thread opens and closes it.
        var socket: Int32 = -1
        /// Whether the parts stream was finished, by the thread or by `end(throwing:)`.
        var isEnded = false
        /// The pipe that `end(throwing:)` writes a byte to, so that a `poll(2)` of the thread returns at once
        /// (`shutdown(2)` wakes nothing while a socket is still connecting); open while the thread runs.
        var wake: (read: Int32, write: Int32)?
    }

    private static let readSize = 64 * 1024

    private let request: HTTPRequest
    private let parts: BoundedParts
    private let logger: any ConfigDirectorLogger
    private let state = Locked(State())

    /// Returns the client's TLS settings, for an `https` request.
    private let tlsContext: @Sendable () throws -> TLSContext
    /// The HTTP proxy that the request goes through, or `nil` to go directly.
    private let proxy: ProxySettings.Proxy?

    /// Prepares an exchange that ``run()`` performs.
    init(
        request: HTTPRequest,
        parts: BoundedParts,
        logger: any ConfigDirectorLogger,
        tlsContext: @escaping @Sendable () throws -> TLSContext,
        proxy: ProxySettings.Proxy?
    ) {
        self.request = request
        self.parts = parts
        self.logger = logger
        self.tlsContext = tlsContext
        self.proxy = proxy
    }

    private var isEnded: Bool { state.withLock(\.isEnded) }

    /// Finishes the parts with `error` unless they already ended, and wakes the thread by shutting the socket.
    func end(throwing error: any Error) {
        let ended = state.withLock { state in
            guard !state.isEnded else { return false }
            state.isEnded = true
            if state.socket >= 0 { _ = shutdown(state.socket, Int32(SHUT_RDWR)) }
            if let wake = state.wake {
                var byte: UInt8 = 1
                _ = write(wake.write, &byte, 1)
            }
            return true
        }
        if ended { parts.finish(throwing: error) }
    }

    /// Finishes the parts normally, or with `error`, unless they already ended.
    private func complete(throwing error: (any Error)?) {
        let ended = state.withLock { state in
            defer { state.isEnded = true }
            return !state.isEnded
        }
        guard ended else { return }
        if let error {
            logger.debug("An HTTP exchange over a socket failed.", error: error)
            parts.finish(throwing: error)
        } else {
            parts.finish()
        }
    }

    /// Runs the exchange to its end; called on the exchange's own thread.
    func run() {
        defer { closeSocket() }
        defer { closeWakePipe() }
        // Runs before the socket closes: the TLS connection says goodbye over it, then is freed.
        var secured: TLSConnection?
        defer { secured?.close() }
        do {
            try openWakePipe()
            let timeout = request.timeout.isFinite && request.timeout > 0 ? request.timeout : nil
            // The connect, the proxy's tunnel and the TLS handshake share one deadline; each later wait has its own.
            let deadline = Self.deadline(after: timeout)
            let (host, port, target, isSecure) = try Self.destination(of: request.url)
            // Without TLS settings there is nothing to connect for.
            let context = isSecure ? try tlsContext() : nil
            let socket: Int32
            if let proxy {
                // The proxy resolves the URL's host: this process resolves the proxy's alone.
                socket = try openProxyConnection(to: proxy, deadline: deadline)
                if isSecure { try openTunnel(through: proxy, to: host, port: port, over: socket, deadline: deadline) }
            } else {
                socket = try openConnection(host: host, port: port, deadline: deadline)
            }
            var connection = OpenConnection(socket: socket)
            if let context {
                Self.blockBrokenPipeSignal()
                let tls = try context.connection(over: socket, host: host)
                secured = tls
                try tls.handshake { events in try wait(for: events, on: socket, deadline: deadline) }
                connection.tls = tls
            }
            let defaultPort = isSecure ? 443 : 80
            // Plain http through a proxy: the request in absolute form, with the proxy's credentials. Through a
            // tunnel, the request is the one without a proxy: the proxy sees none of it.
            let viaProxy = isSecure ? nil : proxy
            let bytes = requestBytes(host: host, port: port, defaultPort: defaultPort, target: target, via: viaProxy)
            try sendAll(bytes, over: connection, timeout: timeout)
            try receive(over: connection, timeout: timeout, via: viaProxy)
            complete(throwing: nil)
        } catch {
            complete(throwing: error)
        }
    }

    /// The instant `timeout` seconds from now, or `nil` for no timeout.
    private static func deadline(after timeout: Double?) -> ContinuousClock.Instant? {
        timeout.map { ContinuousClock.now + .seconds($0) }
    }

    /// Blocks `SIGPIPE` on the exchange's own thread: OpenSSL writes to the socket without `MSG_NOSIGNAL`, and a
    /// write to a connection that the server reset must fail with `EPIPE` instead of ending the process. The
    /// thread ends with the exchange, and a signal left pending for it goes with it.
    private static func blockBrokenPipeSignal() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        _ = pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    // MARK: Connecting

    private static func destination(
        of url: URL
    ) throws(URLError) -> (host: String, port: Int, target: String, isSecure: Bool) {
        let scheme = url.scheme?.lowercased()
        let isSecure = scheme == "https"
        guard scheme == "http" || isSecure,
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            var host = components.host, !host.isEmpty
        else { throw URLError(.unsupportedURL) }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? (isSecure ? 443 : 80)
        guard (1...65_535).contains(port) else { throw URLError(.badURL) }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        return (host, port, target, isSecure)
    }

    private func openConnection(host: String, port: Int, deadline: ContinuousClock.Instant?) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Self.streamSocketType
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw URLError(.cannotFindHost, description: "Could not resolve the host (getaddrinfo \(status)).")
        }
        defer { freeaddrinfo(list) }
        var lastError = URLError(.cannotConnectToHost)
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let address = next {
            next = address.pointee.ai_next
            guard !isEnded else { throw URLError(.cancelled) }
            do {
                return try connectSocket(to: address.pointee, deadline: deadline)
            } catch let error as URLError where error.code == .cannotConnectToHost {
                lastError = error
                closeSocket()
            } catch {
                closeSocket()
                throw error
            }
        }
        throw lastError
    }

    private func connectSocket(to address: addrinfo, deadline: ContinuousClock.Instant?) throws -> Int32 {
        // Close-on-exec from the start, so that a child process the app starts meanwhile never holds it open.
        let descriptor = socket(address.ai_family, address.ai_socktype | Self.closeOnExec, address.ai_protocol)
        guard descriptor >= 0 else { throw URLError(.cannotConnectToHost, errno: errno) }
        let registered = state.withLock { state in
            guard !state.isEnded else { return false }
            state.socket = descriptor
            return true
        }
        guard registered else {
            _ = close(descriptor)
            throw URLError(.cancelled)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if connect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else { throw URLError(.cannotConnectToHost, errno: errno) }
            try wait(for: Int16(POLLOUT), on: descriptor, deadline: deadline)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
                throw URLError(.cannotConnectToHost, errno: errno)
            }
            guard error == 0 else { throw URLError(.cannotConnectToHost, errno: error) }
        }
        return descriptor
    }

    // MARK: Through a proxy

    /// The most bytes of a proxy's answer to `CONNECT`, its status line and header fields.
    static let maxProxyHeadSize = HTTPResponseParser.defaultMaxHeadSize

    /// Connects to `proxy`; a failure names the proxy.
    private func openProxyConnection(to proxy: ProxySettings.Proxy, deadline: ContinuousClock.Instant?) throws -> Int32
    {
        do {
            return try openConnection(host: proxy.host, port: proxy.port, deadline: deadline)
        } catch let error as URLError where error.code == .cannotConnectToHost || error.code == .cannotFindHost {
            throw URLError(
                error.code,
                description: "Could not connect to the HTTP proxy \(proxy.redactedText) (from \(proxy.variable)): "
                    + error.localizedDescription
            )
        }
    }

    /// Asks `proxy`, connected over `socket`, for a tunnel to `host` on `port` with `CONNECT`, and reads its
    /// answer, at most ``maxProxyHeadSize`` bytes, all by `deadline`.
    /// - Throws: `URLError(.userAuthenticationRequired)` for a `407`, `URLError(.cannotConnectToHost)` for any
    ///   other status but `2xx`, `URLError(.badServerResponse)` for an answer that is not HTTP, too large, or
    ///   followed by bytes before the client spoke through the tunnel, `URLError(.networkConnectionLost)` when the
    ///   proxy closes first; `URLError(.timedOut)` past the deadline.
    private func openTunnel(
        through proxy: ProxySettings.Proxy, to host: String, port: Int, over socket: Int32,
        deadline: ContinuousClock.Instant?
    ) throws {
        let authority = Self.clean((host.contains(":") ? "[\(host)]" : host) + ":\(port)")
        var head = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let authorization = proxy.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
        head += "\r\n"
        try sendAll(Array(head.utf8), over: OpenConnection(socket: socket), timeout: nil, deadline: deadline)

        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headEnd: Int?
        while headEnd == nil {
            try wait(for: Int16(POLLIN), on: socket, deadline: deadline)
            guard !isEnded else { throw URLError(.cancelled) }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                    throw URLError(.networkConnectionLost, errno: errno)
                }
                continue
            }
            guard count > 0 else {
                throw URLError(
                    .networkConnectionLost,
                    description: "The HTTP proxy \(proxy.redactedText) closed the connection before it answered "
                        + "CONNECT \(authority)."
                )
            }
            let searchFrom = max(0, received.count - (terminator.count - 1))
            received += buffer[0..<count]
            headEnd = received[searchFrom...].firstRange(of: terminator)?.upperBound
            if received.count > Self.maxProxyHeadSize, headEnd.map({ $0 > Self.maxProxyHeadSize }) ?? true {
                throw URLError(
                    .badServerResponse,
                    description: "The HTTP proxy \(proxy.redactedText) answered CONNECT with a head over "
                        + "\(Self.maxProxyHeadSize) bytes."
                )
            }
        }
        guard let headEnd else { throw URLError(.badServerResponse) }
        var parser = HTTPResponseParser(requestMethod: "CONNECT")
        let events = (try? parser.feed(received[0..<headEnd])) ?? []
        guard
            let status = events.lazy.compactMap({ event -> Int? in
                if case .head(let head) = event { return head.statusCode }
                return nil
            }).first
        else {
            throw URLError(
                .badServerResponse,
                description: "The HTTP proxy \(proxy.redactedText) answered CONNECT with something that is not an "
                    + "HTTP response."
            )
        }
        switch status {
        case 200..<300:
            // TLS starts with the client's hello: a proxy that speaks first is not a tunnel to trust.
            guard received.count == headEnd else {
                throw URLError(
                    .badServerResponse,
                    description: "The HTTP proxy \(proxy.redactedText) sent bytes after its answer to CONNECT, "
                        + "before the client spoke through the tunnel."
                )
            }
        case 407:
            throw Self.authenticationRequired(by: proxy)
        default:
            throw URLError(
                .cannotConnectToHost,
                description:
                    "The HTTP proxy \(proxy.redactedText) refused the tunnel to \(authority): status \(status)."
            )
        }
    }

    /// The error for a proxy that answers `407 Proxy Authentication Required`.
    private static func authenticationRequired(by proxy: ProxySettings.Proxy) -> URLError {
        let sent = proxy.authorization == nil ? "none were given" : "it refused those given"
        return URLError(
            .userAuthenticationRequired,
            description: "The HTTP proxy \(proxy.redactedText) requires authentication (status 407), and \(sent): "
                + "put the user and password in \(proxy.variable) (http://user:password@host:port)."
        )
    }

    /// Opens the pipe that wakes the thread's waits when the exchange ends; fails once it ended.
    private func openWakePipe() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw URLError(.cannotConnectToHost, errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        let opened = state.withLock { state in
            guard !state.isEnded else { return false }
            state.wake = (ends[0], ends[1])
            return true
        }
        guard opened else {
            for end in ends { _ = close(end) }
            throw URLError(.cancelled)
        }
    }

    private func closeWakePipe() {
        state.withLock { state in
            guard let wake = state.wake else { return }
            _ = close(wake.read)
            _ = close(wake.write)
            state.wake = nil
        }
    }

    private func closeSocket() {
        state.withLock { state in
            if state.socket >= 0 { _ = close(state.socket) }
            state.socket = -1
        }
    }

    // MARK: Writing

    /// The request's head and body; through `proxy`, in absolute form (`POST http://host:port/path`) with the
    /// proxy's `Proxy-Authorization`.
    private func requestBytes(
        host: String, port: Int, defaultPort: Int, target: String, via proxy: ProxySettings.Proxy?
    ) -> [UInt8] {
        let hostField = (host.contains(":") ? "[\(host)]" : host) + (port == defaultPort ? "" : ":\(port)")
        let requestTarget = proxy == nil ? target : "http://\(hostField)\(target)"
        var head = "\(Self.clean(request.method)) \(Self.clean(requestTarget)) HTTP/1.1\r\n"
        head += "Host: \(Self.clean(hostField))\r\n"
        if let authorization = proxy?.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
        // Only this client sets `Proxy-Authorization`, and only for the proxy.
        let reserved: Set<String> = [
            "host", "content-length", "connection", "transfer-encoding", "proxy-authorization",
        ]
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key })
        where !reserved.contains(name.lowercased()) {
            head += "\(Self.clean(name)): \(Self.clean(value))\r\n"
        }
        let method = request.method.uppercased()
        if !request.body.isEmpty || !(method == "GET" || method == "HEAD") {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + Array(request.body)
    }

    /// `text` without line breaks: one in a name or value would split the request.
    private static func clean(_ text: String) -> String {
        text.filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" }
    }

    /// Sends `bytes`; each wait lasts at most `timeout`, and none goes past `deadline` when one is given.
    private func sendAll(
        _ bytes: [UInt8], over connection: OpenConnection, timeout: Double?, deadline: ContinuousClock.Instant? = nil
    ) throws {
        let socket = connection.socket
        let waitDeadline = { deadline ?? Self.deadline(after: timeout) }
        var sent = 0
        while sent < bytes.count {
            guard !isEnded else { throw URLError(.cancelled) }
            if let tls = connection.tls {
                sent += try bytes[sent...].withUnsafeBytes { buffer in
                    try tls.write(buffer) { events in
                        try wait(for: events, on: socket, deadline: waitDeadline())
                    }
                }
                continue
            }
            let count = bytes[sent...].withUnsafeBytes { buffer in
                send(socket, buffer.baseAddress, buffer.count, Self.sendFlags)
            }
            if count >= 0 {
                sent += count
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(for: Int16(POLLOUT), on: socket, deadline: waitDeadline())
            } else {
                throw URLError(.networkConnectionLost, errno: errno)
            }
        }
    }

    // MARK: Reading

    /// Reads the response and hands it on; through `proxy` (plain http), its `407` is an error.
    private func receive(over connection: OpenConnection, timeout: Double?, via proxy: ProxySettings.Proxy?) throws {
        var parser = HTTPResponseParser(requestMethod: request.method)
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        while true {
            guard !isEnded else { throw URLError(.cancelled) }
            let count = try read(into: &buffer, over: connection, timeout: timeout)
            guard !isEnded else { throw URLError(.cancelled) }
            let events: [HTTPResponseParser.Event]
            do {
                events = count > 0 ? try parser.feed(buffer[0..<count]) : try parser.finish()
            } catch {
                if error == .truncated { throw URLError(.networkConnectionLost, description: "\(error)") }
                throw URLError(.badServerResponse, description: "\(error)")
            }
            for event in events {
                let part: HTTPResponsePart
                switch event {
                case .head(let head):
                    if let proxy, head.statusCode == 407 { throw Self.authenticationRequired(by: proxy) }
                    part = .head(head)
                case .body(let data): part = .body(data)
                case .end: return
                }
                // Waits while the reader is a full buffer behind; the socket is not read meanwhile.
                guard parts.put(part) != .ended else { throw URLError(.cancelled) }
            }
        }
    }

    /// Reads the next bytes of the response into `buffer`, waiting for them at most `timeout`.
    /// - Returns: How many bytes were read; `0` when the server closed the connection.
    private func read(into buffer: inout [UInt8], over connection: OpenConnection, timeout: Double?) throws -> Int {
        let socket = connection.socket
        if let tls = connection.tls {
            return try buffer.withUnsafeMutableBytes { buffer in
                try tls.read(into: buffer) { events in
                    try wait(for: events, on: socket, deadline: Self.deadline(after: timeout))
                }
            }
        }
        while true {
            try wait(for: Int16(POLLIN), on: socket, deadline: Self.deadline(after: timeout))
            guard !isEnded else { throw URLError(.cancelled) }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return count }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw URLError(.networkConnectionLost, errno: errno)
            }
        }
    }

    /// Waits until `socket` is ready for `events`, or until the deadline passes or the exchange ends; an idle
    /// wait wakes for nothing else.
    private func wait(for events: Int16, on socket: Int32, deadline: ContinuousClock.Instant?) throws {
        guard let wake = state.withLock(\.wake) else { throw URLError(.cancelled) }
        while true {
            guard !isEnded else { throw URLError(.cancelled) }
            var milliseconds: Int32 = -1
            if let deadline {
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else { throw URLError(.timedOut) }
                milliseconds = Int32(clamping: Int64((remaining / .milliseconds(1)).rounded(.up)))
            }
            var descriptors = [
                pollfd(fd: socket, events: events, revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, milliseconds)
            if ready < 0, errno != EINTR { throw URLError(.networkConnectionLost, errno: errno) }
            if descriptors[1].revents != 0 { throw URLError(.cancelled) }
            if descriptors[0].revents != 0 { return }
        }
    }

    private static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    private static let closeOnExec = Int32(SOCK_CLOEXEC.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
}

extension URLError {
    /// A URL error with a description for the logs.
    fileprivate init(_ code: Code, description: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: description])
    }

    /// A URL error for a failed system call.
    fileprivate init(_ code: Code, errno error: Int32) {
        self.init(code, description: String(cString: strerror(error)))
    }
}
#endif
