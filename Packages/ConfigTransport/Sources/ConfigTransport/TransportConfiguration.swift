@_spi(Internal) public import ConfigModel

/// Everything the HTTP transports and the telemetry reporter need to reach the service.
@_spi(Internal) public struct TransportConfiguration: Sendable {
    /// The default limit on one SSE event or one polling body: 8 MiB.
    public static let defaultMaxEventSize = 8 * 1024 * 1024
    /// The default time between two polls, in seconds.
    public static let defaultPollingInterval = 60.0
    /// The shortest time between two polls, in seconds; a smaller interval is raised to it.
    public static let minimumPollingInterval = 30.0
    /// The default connection timeout, in seconds: the client's default.
    public static let defaultConnectionTimeout = 3.0

    /// The client SDK key, sent in every body as `clientSdkKey` and never logged.
    public var clientSDKKey: String
    /// The service's URLs.
    public var endpoint: ServiceEndpoint
    /// What the SDK tells the service about itself and the app.
    public var metaContext: MetaContext
    /// The id of this SDK install, sent as `instanceId`.
    public var instanceID: String
    /// Where the transports log.
    public var logger: any ConfigDirectorLogger
    /// The most bytes one SSE event or one polling body may have; larger ones are refused.
    public var maxEventSize: Int
    /// The time between two polls, in seconds, as asked; see ``effectivePollingInterval``.
    public var pollingInterval: Double
    /// The connection timeout, in seconds: how long one poll may take before it counts as a failed poll,
    /// and the least a stream waits for its response headers (PROTOCOL §4); a stream that has begun its
    /// body has no such limit.
    public var connectionTimeout: Double
    /// The clock that backoff, polling and timeouts wait on.
    public var clock: any TransportClock
    /// Returns a random value in `0...1`; it chooses the jitter of the reconnect delays.
    public var randomFraction: @Sendable () -> Double
    /// Makes the monitor of the device's network path a streaming transport watches
    /// (``SystemNetworkPath/makeMonitor()`` in the client); none by default.
    public var makeNetworkPathMonitor: @Sendable () -> (any NetworkPathMonitor)?

    /// Creates a configuration.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key.
    ///   - endpoint: The service's URLs; ConfigDirector's service by default.
    ///   - metaContext: What the SDK tells the service about itself and the app.
    ///   - instanceID: The id of this SDK install.
    ///   - logger: Where to log.
    ///   - maxEventSize: The most bytes of one event or polling body; 8 MiB by default.
    ///   - pollingInterval: The time between two polls, in seconds; at least 30.
    ///   - connectionTimeout: The connection timeout, in seconds.
    ///   - clock: The clock to wait on; the system's by default.
    ///   - randomFraction: The source of jitter, returning values in `0...1`.
    ///   - makeNetworkPathMonitor: Makes the network path monitor of a streaming transport; none by default.
    public init(
        clientSDKKey: String,
        endpoint: ServiceEndpoint = ServiceEndpoint(),
        metaContext: MetaContext,
        instanceID: String,
        logger: any ConfigDirectorLogger = ConsoleLogger(),
        maxEventSize: Int = TransportConfiguration.defaultMaxEventSize,
        pollingInterval: Double = TransportConfiguration.defaultPollingInterval,
        connectionTimeout: Double = TransportConfiguration.defaultConnectionTimeout,
        clock: any TransportClock = SystemTransportClock(),
        randomFraction: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        makeNetworkPathMonitor: @escaping @Sendable () -> (any NetworkPathMonitor)? = { nil }
    ) {
        self.clientSDKKey = clientSDKKey
        self.endpoint = endpoint
        self.metaContext = metaContext
        self.instanceID = instanceID
        self.logger = logger
        self.maxEventSize = maxEventSize
        self.pollingInterval = pollingInterval
        self.connectionTimeout = connectionTimeout
        self.clock = clock
        self.randomFraction = randomFraction
        self.makeNetworkPathMonitor = makeNetworkPathMonitor
    }

    /// The header fields every request carries: `Content-Type: application/json` and the SDK's
    /// `User-Agent` (``MetaContext/userAgentHeader``), with `extra` added.
    /// - Parameter extra: The request's own fields.
    /// - Returns: The header fields to send.
    public func headers(adding extra: [String: String] = [:]) -> [String: String] {
        extra.merging(["Content-Type": "application/json", "User-Agent": metaContext.userAgentHeader]) { own, _ in own }
    }

    /// The polling interval in force: ``pollingInterval`` raised to ``minimumPollingInterval``, or
    /// ``defaultPollingInterval`` when it is not a finite number.
    public var effectivePollingInterval: Double { Self.pollingInterval(inForceFor: pollingInterval) }

    /// The polling interval in force when `asked` is asked for, by the rule of ``effectivePollingInterval``:
    /// for the client to warn of, at creation, before any transport is made.
    @_spi(Internal)
    public static func pollingInterval(inForceFor asked: Double) -> Double {
        guard asked.isFinite else { return defaultPollingInterval }
        return max(asked, minimumPollingInterval)
    }
}
