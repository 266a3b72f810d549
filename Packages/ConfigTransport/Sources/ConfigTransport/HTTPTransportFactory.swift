@_spi(Internal) internal import ConfigModel

/// Makes the transports that reach ConfigDirector's service over HTTP: streaming or polling.
///
/// ```swift
/// let factory = HTTPTransportFactory(mode: .streaming, configuration: configuration)
/// let transport = factory.makeTransport { event in … }
/// transport.connect(context: user, reason: .initialization)
/// ```
///
/// Each transport has its own HTTP session, released by ``Transport/close()``.
@_spi(Internal) public struct HTTPTransportFactory: TransportFactory {
    /// How the transports receive config sets.
    public enum Mode: Sendable, Hashable {
        /// One Server-Sent Events connection, reconnected with backoff (PROTOCOL §4).
        case streaming
        /// One fetch per polling interval (PROTOCOL §5).
        case polling
    }

    /// The kind of transport made.
    public let mode: Mode
    /// What the transports are made with.
    public let configuration: TransportConfiguration

    private let makeHTTPClient: @Sendable () -> any HTTPClient

    /// Creates a factory of HTTP transports.
    ///
    /// A polling interval under 30 s is raised to 30 s (the client warns about it when it is created).
    /// - Parameters:
    ///   - mode: Streaming or polling.
    ///   - configuration: The key, endpoint, metadata, logger, limits, clock and randomness to use.
    public init(mode: Mode, configuration: TransportConfiguration) {
        let logger = configuration.logger
        self.init(mode: mode, configuration: configuration, httpClient: { PlatformHTTPClient(logger: logger) })
    }

    /// Creates a factory whose transports use the HTTP layer that `httpClient` makes.
    /// - Parameters:
    ///   - mode: Streaming or polling.
    ///   - configuration: What the transports are made with.
    ///   - httpClient: Makes the HTTP layer of each new transport.
    @_spi(Testing) public init(
        mode: Mode,
        configuration: TransportConfiguration,
        httpClient: @escaping @Sendable () -> any HTTPClient
    ) {
        self.mode = mode
        self.configuration = configuration
        self.makeHTTPClient = httpClient
    }

    /// Makes a transport of the factory's mode.
    /// - Parameter handler: Receives every event, one at a time, in order.
    /// - Returns: A transport, not yet connected.
    public func makeTransport(handler: @escaping @Sendable (TransportEvent) -> Void) -> any Transport {
        switch mode {
        case .streaming:
            StreamingTransport(configuration: configuration, http: makeHTTPClient(), handler: handler)
        case .polling:
            PollingTransport(configuration: configuration, http: makeHTTPClient(), handler: handler)
        }
    }
}
