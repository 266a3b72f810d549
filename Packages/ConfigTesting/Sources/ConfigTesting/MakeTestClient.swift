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
/// - Parameters:
///   - values: The values served to every context, by config key; a blank key or a number that is not
///     finite stops the test with a precondition failure.
///   - timeout: The client's connection timeout in seconds, which bounds how long a held attempt waits;
///     the SDK's production timeout of 3 seconds by default.
///   - logger: Where the client logs; the SDK's `ConsoleLogger` by default. Pass a
///     `ConfigDirectorLogger` of your own to capture what the client logs.
/// - Returns: The test client, whose ``TestClient/client`` goes wherever your code takes a client.
public func makeTestClient(
    values: [String: TestValue] = [:],
    timeout: Double = 3,
    logger: any ConfigDirectorLogger = ConsoleLogger()
) -> TestClient {
    let server = InMemoryServer(values: TestClient.checked(values), logger: logger)
    let options = ConfigDirectorClientOptions(
        connection: ConnectionOptions(timeout: timeout),
        logger: logger,
        caching: CachingOptions(enabled: false)
    )
    let environment = ClientEnvironment(
        transportFactory: InMemoryTransportFactory(server: server),
        telemetry: .disabled,
        lifecycleObserver: InertLifecycleObserver()
    )
    let client: ConfigDirectorClient
    do {
        client = try ConfigDirectorClient(clientSDKKey: "test-client", options: options, environment: environment)
    } catch {
        preconditionFailure("The test client's options are always valid: \(error)")
    }
    server.follow { [weak client] in client?.isAwaitingConnect ?? false }
    return TestClient(client: client, server: server)
}
