@_spi(Internal) internal import ConfigModel
@_spi(Internal) internal import ConfigStore
@_spi(Internal) internal import ConfigTransport
internal import Foundation

/// What a client's core runs on, built from its options after they are validated.
struct ClientDependencies: Sendable {
    /// Makes the transports' factory on the first connect; `nil` in `.offline` mode, which connects to nothing.
    var makeTransportFactory: (@Sendable () async -> any TransportFactory)?
    var clock: any TransportClock
    var lifecycleObserver: any AppLifecycleObserver
    var keptValues: KeptValuesStore?
    var telemetry: TelemetryCollector?
    /// The values of `.offline` mode, as the full set served; `nil` in the other modes.
    var offlineSet: ConfigSet?
    /// The bundled values, as the full set served until others arrive; `nil` when there are none.
    var bundledSet: ConfigSet?
    /// Crash-loop safe mode; `nil` when it is off, in `.offline` mode, and for a client whose transport is
    /// injected (a test client) unless its options name a folder for safe mode's files.
    var launchGuard: LaunchGuard?
    /// Local overrides: whether they are on, and the ones kept across launches.
    var localOverrides: LocalOverrides

    /// Validates the options (programming errors throw) and builds the dependencies they ask for.
    init(
        clientSDKKey: String,
        options: ConfigDirectorClientOptions,
        environment: ClientEnvironment
    ) throws(ConfigDirectorError) {
        clock = environment.clock
        lifecycleObserver = environment.lifecycleObserver
        localOverrides = LocalOverrides(options: options.overrides, clientSDKKey: clientSDKKey, logger: options.logger)
        bundledSet = try options.bundledValues?.configSet()
        let connection = options.connection
        if connection.mode == .offline {
            offlineSet = try Self.offlineSet(of: options.values)
            return
        }
        guard !clientSDKKey.allSatisfy(\.isWhitespace) else { throw .missingClientSDKKey }
        guard options.values.isEmpty else { throw .valuesRequireOfflineMode }
        let endpoint = try Self.endpoint(for: connection.baseURL, logger: options.logger)
        if connection.mode == .polling {
            Self.warnAboutPollingInterval(connection.pollingInterval, logger: options.logger)
        }

        let store = KeptValuesStore(clientSDKKey: clientSDKKey, options: options.caching, logger: options.logger)
        keptValues = store
        if options.safeMode.isEnabled, environment.transportFactory == nil || options.safeMode.directory != nil {
            launchGuard = LaunchGuard(
                clientSDKKey: clientSDKKey,
                options: options.safeMode,
                caching: options.caching,
                clock: environment.clock,
                logger: options.logger
            )
        }
        let metadata = (options.metadata ?? ConfigDirectorMetaContext()).filled()
        let metaContext = MetaContext(
            sdkName: environment.sdkName,
            appName: metadata.appName,
            appVersion: metadata.appVersion
        )
        let clock = environment.clock
        if let injected = environment.transportFactory {
            makeTransportFactory = { injected }
        } else {
            makeTransportFactory = {
                HTTPTransportFactory(
                    mode: connection.mode == .polling ? .polling : .streaming,
                    configuration: TransportConfiguration(
                        clientSDKKey: clientSDKKey,
                        endpoint: endpoint,
                        metaContext: metaContext,
                        instanceID: await store.instanceID(),
                        logger: options.logger,
                        maxEventSize: connection.effectiveMaxEventSize,
                        pollingInterval: connection.pollingInterval,
                        connectionTimeout: connection.timeout,
                        clock: clock,
                        makeNetworkPathMonitor: SystemNetworkPath.makeMonitor
                    )
                )
            }
        }
        switch environment.telemetry {
        case .service:
            let sink = ServiceTelemetrySink(
                clientSDKKey: clientSDKKey,
                endpoint: endpoint,
                metaContext: metaContext,
                logger: options.logger
            )
            telemetry = TelemetryCollector(sink: sink, clock: clock)
        case .sink(let sink):
            telemetry = TelemetryCollector(sink: sink, clock: clock)
        case .disabled:
            telemetry = nil
        }
    }

    private static func offlineSet(of values: [String: ServedValue]) throws(ConfigDirectorError) -> ConfigSet {
        try ServedValue.fullSet(of: values) { key, problem in .invalidOfflineValue(key: key, reason: problem) }
    }

    /// Warns once, at creation, about a polling interval that is not used as given: one below the minimum,
    /// which is then used, or one that is not a finite number, for which the default is.
    private static func warnAboutPollingInterval(_ interval: TimeInterval, logger: any ConfigDirectorLogger) {
        let used = TransportConfiguration.pollingInterval(inForceFor: interval)
        guard used != interval else { return }
        let problem =
            interval.isFinite
            ? "is below the minimum of \(TransportConfiguration.minimumPollingInterval) s"
            : "is not a finite number of seconds"
        logger.warn("The pollingInterval \(interval) s \(problem); polling every \(used) s.")
    }

    private static func endpoint(
        for baseURL: URL?,
        logger: any ConfigDirectorLogger
    ) throws(ConfigDirectorError) -> ServiceEndpoint {
        guard let baseURL else { return ServiceEndpoint() }
        guard ServiceEndpoint.isValidBaseURL(baseURL) else { throw .invalidBaseURL(baseURL) }
        if baseURL.scheme?.lowercased() != "https" {
            logger.warn(
                "The base URL \(baseURL.redactedText) is not HTTPS: config values and the SDK key travel unencrypted."
            )
        }
        return ServiceEndpoint(baseURL: baseURL)
    }
}
