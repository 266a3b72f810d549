@_spi(Internal) public import ConfigModel
@_spi(Internal) public import ConfigStore

/// Everything a ``ConfigDirectorClient`` can be configured with.
///
/// ```swift
/// let client = try ConfigDirectorClient(
///     clientSDKKey: "YOUR-CLIENT-SDK-KEY",
///     options: ConfigDirectorClientOptions(
///         metadata: ConfigDirectorMetaContext(appName: "YOUR-APP-NAME", appVersion: "1.0.2"),
///         connection: ConnectionOptions(mode: .polling, pollingInterval: 600, timeout: 2),
///         logger: ConsoleLogger(level: .debug)
///     )
/// )
/// ```
public struct ConfigDirectorClientOptions: Sendable {
    /// The app's name and version; `nil`, or whichever field is `nil`, is read from the bundle.
    public var metadata: ConfigDirectorMetaContext?
    /// How the client connects.
    public var connection: ConnectionOptions
    /// Where the SDK logs; a ``ConsoleLogger`` at `.warn` by default.
    public var logger: any ConfigDirectorLogger
    /// Whether and where the last values received are kept on the device.
    public var caching: CachingOptions
    /// The values served in `.offline` mode, by key; giving any in another mode is an error.
    public var values: [String: ServedValue]
    /// Code of the app's run around every evaluation and every `initialize` and `updateContext`, in
    /// this order before and in reverse order after; none by default. See ``ConfigDirectorHook``.
    public var hooks: [any ConfigDirectorHook]
    /// Values the app ships, served until values kept on the device or live values arrive; none by
    /// default. See ``BundledValues``.
    public var bundledValues: BundledValues?
    /// Crash-loop safe mode: a set of values after which launches keep ending unhealthy is set aside; on by
    /// default. See ``SafeModeOptions``.
    public var safeMode: SafeModeOptions
    /// Local overrides: values forced on this device for QA, UI tests and debug screens; off by default. See
    /// ``LocalOverrideOptions``.
    public var overrides: LocalOverrideOptions
    /// When values received while the app runs reach its reads: at once (``UpdatePolicy/live``, the default)
    /// or when the app calls ``ConfigDirectorClient/activate()`` (``UpdatePolicy/onActivate``).
    public var updatePolicy: UpdatePolicy

    /// Creates client options.
    /// - Parameters:
    ///   - metadata: The app's name and version; read from the bundle when left unset.
    ///   - connection: How the client connects; streaming by default.
    ///   - logger: Where the SDK logs; warnings and errors to the console by default.
    ///   - caching: Whether and where values are kept on the device; on, in `UserDefaults`, by default.
    ///   - values: The values served in `.offline` mode.
    ///   - hooks: Code run around every evaluation and every `initialize` and `updateContext`.
    ///   - bundledValues: Values the app ships, served before anything else is known.
    ///   - safeMode: Crash-loop safe mode; on by default.
    ///   - overrides: Local overrides; off by default.
    ///   - updatePolicy: When values received while the app runs apply; at once by default.
    public init(
        metadata: ConfigDirectorMetaContext? = nil,
        connection: ConnectionOptions = ConnectionOptions(),
        logger: any ConfigDirectorLogger = ConsoleLogger(),
        caching: CachingOptions = CachingOptions(),
        values: [String: ServedValue] = [:],
        hooks: [any ConfigDirectorHook] = [],
        bundledValues: BundledValues? = nil,
        safeMode: SafeModeOptions = SafeModeOptions(),
        overrides: LocalOverrideOptions = .disabled,
        updatePolicy: UpdatePolicy = .live
    ) {
        self.metadata = metadata
        self.connection = connection
        self.logger = logger
        self.caching = caching
        self.values = values
        self.hooks = hooks
        self.bundledValues = bundledValues
        self.safeMode = safeMode
        self.overrides = overrides
        self.updatePolicy = updatePolicy
    }
}
