@_spi(Internal) public import ConfigModel
public import Foundation

/// How an emulator listens, what it serves and the limits it keeps.
public struct EmulatorConfiguration: Sendable {
    /// The IPv4 address to listen on; `127.0.0.1` by default (`localhost` means the same).
    public var host: String
    /// The port to listen on; 0 lets the system pick a free one.
    public var port: Int
    /// The only client SDK key accepted; any other gets 401.
    public var sdkKey: String
    /// The configs served at start.
    public var document: ConfigsDocument
    /// A configs file to reload whenever it changes, or `nil`.
    public var watchedFile: URL?
    /// How often the watched file is checked for a change.
    public var watchInterval: TimeInterval
    /// How long a stream stays silent before a heartbeat comment.
    public var heartbeatInterval: TimeInterval
    /// The largest request head, in bytes; a larger one gets 413.
    public var maxRequestHeadBytes: Int
    /// The largest request body, in bytes; a larger one gets 413.
    public var maxRequestBodyBytes: Int
    /// How long a connection may take to send its request before it is answered 408 and closed.
    public var requestTimeout: TimeInterval
    /// How long one write may block on a client that does not read before the connection is dropped.
    public var writeTimeout: TimeInterval
    /// The most bytes queued for one stream; a client that falls further behind is dropped.
    public var maxQueuedBytesPerStream: Int
    /// How many changes are kept to replay to a client that reconnects with `Last-Event-ID`.
    public var heldChanges: Int
    /// How many requests and telemetry batches are kept; older ones are forgotten.
    public var recordLimit: Int
    /// The most connections open at once; further ones are answered 503 and closed.
    public var maxConnections: Int
    /// The token every admin request must carry as the value of `X-Emulator-Admin`, or `nil`. With `nil`,
    /// the header's value is `1` on loopback, and an emulator that listens beyond loopback generates a
    /// token (``ConfigEmulator/adminToken``), so that no other machine can use the admin API.
    public var adminToken: String?
    /// Where the emulator logs, or `nil` for silence.
    public var logger: (any ConfigDirectorLogger)?

    /// Creates a configuration.
    /// - Parameters:
    ///   - host: The IPv4 address to listen on.
    ///   - port: The port; 0 picks a free one.
    ///   - sdkKey: The client SDK key accepted.
    ///   - document: The configs served at start.
    ///   - watchedFile: A configs file to reload when it changes.
    ///   - heartbeatInterval: Seconds of silence before a heartbeat comment.
    ///   - logger: Where to log.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        sdkKey: String = "emulator-sdk-key",
        document: ConfigsDocument = ConfigsDocument(configs: []),
        watchedFile: URL? = nil,
        heartbeatInterval: TimeInterval = 15,
        logger: (any ConfigDirectorLogger)? = nil
    ) {
        self.host = host
        self.port = port
        self.sdkKey = sdkKey
        self.document = document
        self.watchedFile = watchedFile
        self.watchInterval = 0.25
        self.heartbeatInterval = heartbeatInterval
        self.maxRequestHeadBytes = 16 * 1024
        self.maxRequestBodyBytes = 1024 * 1024
        self.requestTimeout = 10
        self.writeTimeout = 5
        self.maxQueuedBytesPerStream = 4 * 1024 * 1024
        self.heldChanges = 256
        self.recordLimit = 10_000
        self.maxConnections = 1_000
        self.adminToken = nil
        self.logger = logger
    }
}
