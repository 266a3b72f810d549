@_spi(Internal) @_spi(Locking) public import ConfigModel
public import Foundation

/// The SDK's HTTP layer: ``SocketHTTPClient`` for `http` URLs where `URLSession` is swift-corelibs-foundation's
/// (it busy-loops while a response stays open), ``URLSessionHTTPClient`` for everything else.
///
/// On Apple platforms every request goes to `URLSession`; on Linux `https` does too, since the socket client
/// has no TLS. Each inner client is made on its first request; ``shutdown()`` shuts down both.
@_spi(Testing) public final class PlatformHTTPClient: HTTPClient {
    private struct State {
        var session: URLSessionHTTPClient?
        var socket: (any HTTPClient)?
        var isShutdown = false
    }

    private let logger: any ConfigDirectorLogger
    private let state = Locked(State())

    /// Creates a client; the inner clients are made on first use.
    /// - Parameter logger: Passed on to the inner clients.
    public init(logger: any ConfigDirectorLogger) {
        self.logger = logger
    }

    /// Whether requests to `url` go to the socket client on this platform.
    /// - Parameter url: A request's URL.
    /// - Returns: `true` for `http` where `URLSession` is swift-corelibs-foundation's, else `false`.
    public static func usesSocket(for url: URL) -> Bool {
        #if canImport(FoundationNetworking) && canImport(Glibc)
        return url.scheme?.lowercased() == "http"
        #else
        return false
        #endif
    }

    /// Starts `request` on the inner client that its URL goes to.
    /// - Parameter request: The request.
    /// - Returns: The exchange; after ``shutdown()``, one that fails at once with `CancellationError`.
    public func start(_ request: HTTPRequest) -> HTTPExchange {
        let logger = self.logger
        let useSocket = Self.usesSocket(for: request.url)
        let client: (any HTTPClient)? = state.withLock { state in
            guard !state.isShutdown else { return nil }
            if useSocket {
                let socket = state.socket ?? Self.makeSocketClient(logger: logger)
                state.socket = socket
                return socket
            }
            let session = state.session ?? URLSessionHTTPClient(logger: logger)
            state.session = session
            return session
        }
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
            return [state.session, state.socket].compactMap { $0 }
        }
        for client in clients {
            client.shutdown()
        }
    }

    private static func makeSocketClient(logger: any ConfigDirectorLogger) -> any HTTPClient {
        #if canImport(Glibc) || canImport(Darwin)
        return SocketHTTPClient(logger: logger)
        #else
        return URLSessionHTTPClient(logger: logger)
        #endif
    }
}
