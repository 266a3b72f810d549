@_spi(Internal) public import ConfigModel

/// A connection to the service that the client drives: streaming, polling, or an in-memory server in tests.
///
/// A transport hands its owner, in order and one at a time, every ``TransportEvent``: each decoded
/// config set and each change of connection state. It is created by a ``TransportFactory`` with the
/// handler that receives them.
@_spi(Internal) public protocol Transport: AnyObject, Sendable {
    /// Starts connecting for `context`, replacing any previous connection entirely, and returns at once.
    ///
    /// What happens next is reported to the handler as ``TransportEvent``s: the connection opening,
    /// each config set, a retry, a fatal refusal, or the service stopping it. The transport never
    /// gives up on a connect by itself: the connect deadline is its owner's.
    /// - Parameters:
    ///   - context: The context to send; `nil` sends an empty context.
    ///   - reason: The action that connects, which a transport may tell apart (the test client's
    ///     server holds or fails only `initialize` or only `updateContext`).
    func connect(context: ConfigDirectorContext?, reason: ConnectReason)

    /// Releases the connection and stops every retry at once; `connect` may be called again.
    func disconnect()

    /// Stops everything the transport started, for good.
    func close()

    /// Tells the transport that the network may have returned (the app came back to the foreground): a
    /// connection waiting out a backoff tries again now, its backoff started over.
    func networkMayHaveReturned()
}

extension Transport {
    /// Does nothing: a transport without a backoff has nothing to cut short.
    public func networkMayHaveReturned() {}
}

/// Something a transport tells its owner.
@_spi(Internal) public enum TransportEvent: Sendable, Equatable {
    /// A config set arrived and decoded.
    case configSet(ConfigSet)
    /// The connection's state changed.
    case connectionState(ConnectionState)
}

/// The state of a transport's connection.
@_spi(Internal) public enum ConnectionState: Sendable, Equatable {
    /// The connection opened (streaming) or a fetch succeeded (polling).
    case open
    /// The connection failed, for the reason `failure` says, and will be retried after `delay` seconds;
    /// `attempt` counts from 1.
    case reconnecting(attempt: Int, delay: Double, failure: TransportFailure)
    /// The service refused the connection for good; nothing is retried.
    case failed(ConfigDirectorError)
    /// The service answered 204: the transport stopped without an error.
    case stopped
}

/// Why a connection or a fetch failed, as the transport's logs say it: for the client's connection health.
@_spi(Internal) public struct TransportFailure: Sendable, Equatable {
    /// What went wrong, such as `status 503` or `no response headers within 30.0 s`: the words of the log line,
    /// never the SDK key, a context or a response body.
    public var description: String
    /// The response's status, when a response said what went wrong.
    public var statusCode: Int?

    /// Creates a failure.
    /// - Parameters:
    ///   - description: What went wrong.
    ///   - statusCode: The response's status, if one answered.
    public init(_ description: String, statusCode: Int? = nil) {
        self.description = description
        self.statusCode = statusCode
    }
}

/// Makes the transports a client uses, so that tests can give it an in-memory one.
@_spi(Internal) public protocol TransportFactory: Sendable {
    /// Makes a transport that delivers its events to `handler`, in order.
    /// - Parameter handler: Receives every event, one at a time.
    /// - Returns: A transport, not yet connected.
    func makeTransport(handler: @escaping @Sendable (TransportEvent) -> Void) -> any Transport
}
