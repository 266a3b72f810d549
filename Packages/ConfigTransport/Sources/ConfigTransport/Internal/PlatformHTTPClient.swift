@_spi(Internal) @_spi(Locking) public import ConfigModel
public import Foundation

/// The SDK's HTTP layer: ``SocketHTTPClient`` where `URLSession` is swift-corelibs-foundation's (it busy-loops
/// while a response stays open), ``URLSessionHTTPClient`` elsewhere.
///
/// On Apple platforms every request goes to `URLSession`. On Linux `http` goes to the socket client, and
/// `https` too when the system's OpenSSL loads; when it does not, `https` goes to `URLSession`, with one warning
/// in the log about what that costs. Each inner client is made on its first request; ``shutdown()`` shuts down
/// both.
@_spi(Testing) public final class PlatformHTTPClient: HTTPClient {
    private struct State {
        var session: URLSessionHTTPClient?
        #if canImport(FoundationNetworking) && canImport(Glibc)
        var socket: SocketHTTPClient?
        /// Whether the warning that `https` falls back to `URLSession` was logged.
        var warnedAboutFallback = false
        #endif
        var isShutdown = false
    }

    private let logger: any ConfigDirectorLogger
    private let state = Locked(State())

    #if canImport(FoundationNetworking) && canImport(Glibc)
    /// The OpenSSL that the socket client's TLS uses, or why it did not load.
    private let openSSL: Result<OpenSSLLibrary, OpenSSLLibrary.LoadFailure>

    /// Creates a client; the inner clients are made on first use.
    /// - Parameter logger: Passed on to the inner clients.
    public convenience init(logger: any ConfigDirectorLogger) {
        self.init(logger: logger, openSSL: OpenSSLLibrary.shared)
    }

    /// Creates a client whose socket client uses `openSSL`, for tests of the fallback.
    /// - Parameters:
    ///   - logger: Passed on to the inner clients.
    ///   - openSSL: The loaded OpenSSL, or why it did not load (then `https` goes to `URLSession`).
    init(logger: any ConfigDirectorLogger, openSSL: Result<OpenSSLLibrary, OpenSSLLibrary.LoadFailure>) {
        self.logger = logger
        self.openSSL = openSSL
    }
    #else
    /// Creates a client; the inner clients are made on first use.
    /// - Parameter logger: Passed on to the inner clients.
    public init(logger: any ConfigDirectorLogger) {
        self.logger = logger
    }
    #endif

    /// Whether requests to `url` go to the socket client on this platform.
    /// - Parameter url: A request's URL.
    /// - Returns: `true` where `URLSession` is swift-corelibs-foundation's, for `http`, and for `https` when the
    ///   system's OpenSSL loaded; else `false`.
    public static func usesSocket(for url: URL) -> Bool {
        #if canImport(FoundationNetworking) && canImport(Glibc)
        return usesSocket(for: url, tlsLoaded: (try? OpenSSLLibrary.shared.get()) != nil)
        #else
        return false
        #endif
    }

    /// Whether requests to `url` go to the socket client where `URLSession` is swift-corelibs-foundation's.
    /// - Parameters:
    ///   - url: A request's URL.
    ///   - tlsLoaded: Whether the socket client has TLS.
    /// - Returns: `true` for `http`, and for `https` when `tlsLoaded`.
    static func usesSocket(for url: URL, tlsLoaded: Bool) -> Bool {
        switch url.scheme?.lowercased() {
        case "http": true
        case "https": tlsLoaded
        default: false
        }
    }

    /// Starts `request` on the inner client that its URL goes to.
    /// - Parameter request: The request.
    /// - Returns: The exchange; after ``shutdown()``, one that fails at once with `CancellationError`.
    public func start(_ request: HTTPRequest) -> HTTPExchange {
        let logger = self.logger
        #if canImport(FoundationNetworking) && canImport(Glibc)
        let openSSL = self.openSSL
        let useSocket = Self.usesSocket(for: request.url, tlsLoaded: (try? openSSL.get()) != nil)
        var fallbackWarning: String?
        if case .failure(let failure) = openSSL, request.url.scheme?.lowercased() == "https" {
            fallbackWarning =
                "OpenSSL did not load (\(failure)), so https goes through Foundation's URLSession, which on Linux "
                + "keeps a CPU core busy for as long as a stream is open, and trusts libcurl's certificate bundle "
                + "alone: SSL_CERT_FILE and SSL_CERT_DIR do not reach it."
        }
        #endif
        let (client, warning): ((any HTTPClient)?, String?) = state.withLock { state in
            guard !state.isShutdown else { return (nil, nil) }
            #if canImport(FoundationNetworking) && canImport(Glibc)
            if useSocket {
                let socket = state.socket ?? SocketHTTPClient(logger: logger, openSSL: openSSL)
                state.socket = socket
                return (socket, nil)
            }
            #endif
            let session = state.session ?? URLSessionHTTPClient(logger: logger)
            state.session = session
            #if canImport(FoundationNetworking) && canImport(Glibc)
            if let fallbackWarning, !state.warnedAboutFallback {
                state.warnedAboutFallback = true
                return (session, fallbackWarning)
            }
            #endif
            return (session, nil)
        }
        if let warning { logger.warn(warning) }
        guard let client else {
            let (parts, continuation) = AsyncThrowingStream.makeStream(
                of: HTTPResponsePart.self,
                throwing: (any Error).self
            )
            continuation.finish(throwing: CancellationError())
            return HTTPExchange(parts: parts, cancel: {})
        }
        return client.start(request)
    }

    /// Shuts down both inner clients; later requests fail at once.
    public func shutdown() {
        let clients: [any HTTPClient] = state.withLock { state in
            state.isShutdown = true
            var clients: [any HTTPClient] = state.session.map { [$0] } ?? []
            #if canImport(FoundationNetworking) && canImport(Glibc)
            if let socket = state.socket { clients.append(socket) }
            #endif
            return clients
        }
        for client in clients {
            client.shutdown()
        }
    }
}
