@_spi(Internal) @_spi(Testing) public import ConfigClient
@_spi(Internal) public import ConfigModel
@_spi(Internal) internal import ConfigStore

/// Makes a test client: the SDK's real `ConfigDirectorClient` connected to an in-memory server
/// that the test controls.
///
/// Only the connection to ConfigDirector, the telemetry and the app lifecycle observer are replaced,
/// and nothing is kept on the device. No network connection is opened and no telemetry is sent. The
/// client starts uninitialized; with nothing held or failed, `initialize` completes at once with the
/// client ready.
///
/// ```swift
/// let testClient = makeTestClient(values: ["greeting": "hello"])
/// defer { testClient.client.close() }
/// await testClient.client.initialize()
/// #expect(testClient.client.value(for: "greeting", default: "none") == "hello")
/// ```
///
/// The app's hooks run around the test client's evaluations, `initialize` and `updateContext`, as they
/// do on a client made with them in its options. Local overrides are on (the code under test may set them);
/// the test process's launch arguments and environment set none. To test a bundled values file too, give it to
/// ``makeTestClient(values:timeout:logger:hooks:bundledValues:)``.
/// - Parameters:
///   - values: The values served to every context, by config key; a blank key or a number that is not
///     finite stops the test with a precondition failure.
///   - timeout: The client's connection timeout in seconds, which bounds how long a held attempt waits;
///     the SDK's production timeout of 3 seconds by default.
///   - logger: Where the client logs; the SDK's `ConsoleLogger` by default. Pass a
///     `ConfigDirectorLogger` of your own to capture what the client logs.
///   - hooks: The app's hooks, as `ConfigDirectorClientOptions.hooks` takes them; none by default.
/// - Returns: The test client, whose ``TestClient/client`` goes wherever your code takes a client.
public func makeTestClient(
    values: [String: TestValue] = [:],
    timeout: Double = 3,
    logger: any ConfigDirectorLogger = ConsoleLogger(),
    hooks: [any ConfigDirectorHook] = []
) -> TestClient {
    do {
        return try TestClient.make(values: values, timeout: timeout, logger: logger, hooks: hooks, bundledValues: nil)
    } catch {
        preconditionFailure("The test client's options are always valid without bundled values: \(error)")
    }
}

/// Makes a test client that also serves the app's bundled values: until `initialize` receives the
/// values of the test, and for the keys they lack until then, the client serves the bundled values,
/// with `valueSource` `.bundledValues`, as a client made with them in its options does.
///
/// ```swift
/// let testClient = try makeTestClient(bundledValues: .resource(named: "configdirector-defaults", in: .module))
/// defer { testClient.client.close() }
/// #expect(testClient.client.value(for: "dark-mode", default: false))
/// ```
/// - Parameters:
///   - values: The values served to every context once the client connects, by config key; a blank key
///     or a number that is not finite stops the test with a precondition failure.
///   - timeout: The client's connection timeout in seconds; 3 by default.
///   - logger: Where the client logs; the SDK's `ConsoleLogger` by default.
///   - hooks: The app's hooks, as `ConfigDirectorClientOptions.hooks` takes them; none by default.
///   - bundledValues: The values the app ships, as `ConfigDirectorClientOptions.bundledValues` takes them.
/// - Returns: The test client.
/// - Throws: `ConfigDirectorError.invalidBundledValues(file:reason:)` when the bundled values cannot be
///   loaded (a missing or malformed file, a value that cannot be served), as the client's initializer does.
public func makeTestClient(
    values: [String: TestValue] = [:],
    timeout: Double = 3,
    logger: any ConfigDirectorLogger = ConsoleLogger(),
    hooks: [any ConfigDirectorHook] = [],
    bundledValues: BundledValues
) throws(ConfigDirectorError) -> TestClient {
    try TestClient.make(values: values, timeout: timeout, logger: logger, hooks: hooks, bundledValues: bundledValues)
}

extension TestClient {
    /// The test client of both spellings of `makeTestClient`.
    /// - Throws: What the client's initializer throws: with the test client's own options, only for
    ///   bundled values that cannot be loaded.
    fileprivate static func make(
        values: [String: TestValue],
        timeout: Double,
        logger: any ConfigDirectorLogger,
        hooks: [any ConfigDirectorHook],
        bundledValues: BundledValues?
    ) throws(ConfigDirectorError) -> TestClient {
        let server = InMemoryServer(values: checked(values), logger: logger)
        let options = ConfigDirectorClientOptions(
            connection: ConnectionOptions(timeout: timeout),
            logger: logger,
            caching: CachingOptions(enabled: false),
            hooks: hooks,
            bundledValues: bundledValues,
            // The code under test may set overrides (a debug screen's); the test process's arguments set none.
            overrides: LocalOverrideOptions(isEnabled: true, readsLaunchArguments: false)
        )
        let environment = ClientEnvironment(
            transportFactory: InMemoryTransportFactory(server: server),
            telemetry: .disabled,
            lifecycleObserver: InertLifecycleObserver()
        )
        let client = try ConfigDirectorClient(clientSDKKey: "test-client", options: options, environment: environment)
        server.follow { [weak client] in client?.isAwaitingConnect ?? false }
        return TestClient(client: client, server: server)
    }
}
