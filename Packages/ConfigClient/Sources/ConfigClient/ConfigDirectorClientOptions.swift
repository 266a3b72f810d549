public import ConfigModel
public import ConfigStore

/// Everything a ``ConfigDirectorClient`` can be configured with.
///
/// ```swift
/// let client = try ConfigDirectorClient(
///     clientSDKKey: "YOUR-CLIENT-SDK-KEY",
///     options: ConfigDirectorClientOptions(
///         metadata: ConfigDirectorMetaContext(appName: "YOUR-APP-NAME", appVersion: "1.0.2"),
///         logger: ConsoleLogger(level: .debug),
///         connection: ConnectionOptions(mode: .polling, pollingInterval: 600, timeout: 2)
///     )
/// )
/// ```
public struct ConfigDirectorClientOptions: Sendable {
    /// The app's name and version; whichever is `nil` is read from the bundle.
    public var metadata: ConfigDirectorMetaContext
    /// Where the SDK logs; a ``ConsoleLogger`` at `.warn` by default.
    public var logger: any ConfigDirectorLogger
    /// How the client connects.
    public var connection: ConnectionOptions
    /// Whether and where the last values received are kept on the device.
    public var caching: CachingOptions
    /// The values served in `.offline` mode, by key; giving any in another mode is an error.
    public var values: [String: ServedValue]

    /// Creates client options.
    /// - Parameters:
    ///   - metadata: The app's name and version; read from the bundle when left unset.
    ///   - logger: Where the SDK logs; warnings and errors to the console by default.
    ///   - connection: How the client connects; streaming by default.
    ///   - caching: Whether and where values are kept on the device; on, in `UserDefaults`, by default.
    ///   - values: The values served in `.offline` mode.
    public init(
        metadata: ConfigDirectorMetaContext = ConfigDirectorMetaContext(),
        logger: any ConfigDirectorLogger = ConsoleLogger(),
        connection: ConnectionOptions = ConnectionOptions(),
        caching: CachingOptions = CachingOptions(),
        values: [String: ServedValue] = [:]
    ) {
        self.metadata = metadata
        self.logger = logger
        self.connection = connection
        self.caching = caching
        self.values = values
    }
}
