@_spi(Internal) @_spi(Locking) public import ConfigModel

/// The ConfigDirector client: evaluates configs for a context, keeps them current, and tells you
/// when they change.
///
/// ```swift
/// let client = try ConfigDirectorClient(clientSDKKey: "YOUR-CLIENT-SDK-KEY")
/// await client.initialize(context: ConfigDirectorContext(id: "user-123"))
/// let darkMode = client.value(for: "dark-mode", default: false)
/// ```
///
/// The client is thread safe: create one, share it for the lifetime of the app. Evaluation is
/// synchronous and reads state already in memory. The client closes itself when it is released.
public final class ConfigDirectorClient: Sendable {
    let core: ClientCore
    /// The hooks of the options, or `nil` when there is none.
    let hooks: HookRunner?

    /// Creates a client that connects to ConfigDirector with a client SDK key.
    ///
    /// Creating the client makes no network call; ``initialize(context:)`` connects.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key of your environment, from "SDK keys" in the dashboard.
    ///   - options: The client's options.
    /// - Throws: ``ConfigDirectorError/missingClientSDKKey`` when the key is blank,
    ///   ``ConfigDirectorError/invalidBaseURL(_:)`` when a custom base URL has no scheme or host, and
    ///   ``ConfigDirectorError/valuesRequireOfflineMode`` when offline values are given.
    public convenience init(
        clientSDKKey: String,
        options: ConfigDirectorClientOptions = ConfigDirectorClientOptions()
    ) throws(ConfigDirectorError) {
        try self.init(clientSDKKey: clientSDKKey, options: options, environment: ClientEnvironment())
    }

    /// Creates a client without an SDK key, for `.offline` mode: it serves the values of the options
    /// and connects to nothing.
    ///
    /// ```swift
    /// let client = try ConfigDirectorClient(
    ///     options: ConfigDirectorClientOptions(connection: ConnectionOptions(mode: .offline), values: ["beta": true])
    /// )
    /// ```
    /// - Parameter options: The options; `connection.mode` must be `.offline`.
    /// - Throws: ``ConfigDirectorError/missingClientSDKKey`` when the mode is not `.offline`, and
    ///   ``ConfigDirectorError/invalidOfflineValue(key:reason:)`` when a value cannot be served.
    public convenience init(options: ConfigDirectorClientOptions) throws(ConfigDirectorError) {
        try self.init(clientSDKKey: "", options: options, environment: ClientEnvironment())
    }

    /// Creates a client with replaced seams, for tests and the SDK's own products.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key; ignored in `.offline` mode.
    ///   - options: The client's options.
    ///   - environment: The seams: transports, telemetry, lifecycle, clock and SDK name.
    /// - Throws: As ``init(clientSDKKey:options:)`` and ``init(options:)``.
    @_spi(Testing)
    public init(
        clientSDKKey: String,
        options: ConfigDirectorClientOptions,
        environment: ClientEnvironment
    ) throws(ConfigDirectorError) {
        let dependencies = try ClientDependencies(
            clientSDKKey: clientSDKKey,
            options: options,
            environment: environment
        )
        core = ClientCore(options: options, dependencies: dependencies)
        if let bundledSet = dependencies.bundledSet { core.serveBundled(bundledSet) }
        core.serveInitialOverrides(arguments: environment.arguments, environment: environment.environmentVariables)
        hooks = HookRunner(options.hooks, logger: options.logger)
        environment.lifecycleObserver.start { [weak core] event in core?.handle(event) }
    }

    deinit {
        core.close()
    }

    // MARK: - Lifecycle

    /// Connects with `context` and waits until config values arrive or the connection timeout passes.
    ///
    /// It returns normally either way; ``isReady`` tells which happened. ``isReady`` turns `false`
    /// when it starts (on a ready client too) and `true` with the next config state. After a timeout
    /// the context applies and the client keeps connecting in the background; after a refusal (a 4xx
    /// other than 429) the context stays as it was and one error is logged. Calls of `initialize`,
    /// ``updateContext(_:)`` and ``resumeNetwork()`` run one at a time, in call order.
    /// - Parameter context: The context to evaluate for; `nil` lets the server derive one.
    public func initialize(context: ConfigDirectorContext? = nil) async {
        await connect(context, reason: .initialization)
    }

    /// Reconnects with a new context and waits until its values arrive or the connection timeout passes.
    ///
    /// Until then the current values keep being served, ``isReady`` is `false`, and ``context`` is
    /// still the previous context; a refused connection leaves it so.
    /// - Parameter context: The new context; `nil` lets the server derive one.
    public func updateContext(_ context: ConfigDirectorContext?) async {
        await connect(context, reason: .contextUpdate)
    }

    /// Connects with `context`, with the hooks' context change stages around it.
    private func connect(_ context: ConfigDirectorContext?, reason: ConnectReason) async {
        guard let hooks else { return await core.enqueueConnect(.given(context), reason: reason) }
        await hooks.contextChange(ContextChangeHookContext(context: context, reason: reason)) {
            await core.enqueueConnect(.given(context), reason: reason)
            return isReady
        }
    }

    /// The context configs are evaluated against, once it has taken effect.
    public var context: ConfigDirectorContext? { core.context }

    /// Whether config state arrived for the current context: `false` from the start of every connect
    /// (`initialize`, ``updateContext(_:)``, ``resumeNetwork()``) until its config state arrives, and
    /// from ``pauseNetwork()`` or ``close()`` on.
    public var isReady: Bool { core.isReady }

    /// Whether the client is waiting for its very first config state: `true` from `initialize` until
    /// config state arrives, an unrecoverable error or the service's `204` stops the retries, or the client
    /// closes.
    public var isInitializing: Bool { core.isInitializing }

    /// Where the values served come from: none yet, bundled values, values kept on the device (stale),
    /// or live values.
    ///
    /// It is ``ConfigValueSource/keptValues`` from the moment values kept from an earlier launch are
    /// loaded until live values replace them; a `configsUpdated` event marks each change.
    public var valueSource: ConfigValueSource { core.source }

    /// Whether a connect's caller (`initialize`, ``updateContext(_:)``, ``resumeNetwork()``) still waits
    /// for its config state: `false` once it arrived, the deadline passed, or a refusal, a pause or
    /// ``close()`` ended the wait. The test client's server ends a held connect with it.
    @_spi(Testing)
    public var isAwaitingConnect: Bool { core.isAwaitingConnect }

    /// Waits until the values kept on the device, loaded by the first `initialize` beside its
    /// connection, were served or found missing; returns at once when no load was started.
    @_spi(Testing)
    public func keptValuesLoaded() async {
        await core.keptValuesLoaded()
    }

    /// How many connects (`initialize`, ``updateContext(_:)``, ``resumeNetwork()``) wait for the connect
    /// called before them to end: each has begun and is held at its turn, so that a test knows that it
    /// would have reached the transport by now if connects did not run one at a time.
    @_spi(Testing)
    public var connectsWaitingForTheirTurn: Int { core.connectsWaitingForTheirTurn }

    /// Releases the network connection, keeping config state and every stream.
    ///
    /// ``isReady`` turns `false`; the values are still served. A connect in progress returns as its
    /// timeout would, with its context applied.
    public func pauseNetwork() {
        core.pauseNetwork()
    }

    /// Connects again with the current context, and waits until config values arrive or the
    /// connection timeout passes.
    ///
    /// The context is applied again (`contextUpdated`, then `ready(.networkResume)` and
    /// `configsUpdated` with the config state). A client never initialized connects with no context.
    public func resumeNetwork() async {
        await core.resumeNetwork()
    }

    /// Closes the connection, finishes every stream, and reports the telemetry left. The client
    /// cannot be used afterwards; it also closes itself when released.
    ///
    /// ``isReady`` and ``isInitializing`` turn `false`, and a `values(for:)` stream made afterwards
    /// finishes without yielding. The last telemetry batch and the last write of the values kept on
    /// the device go on for a moment after it returns, bounded by a short deadline.
    public func close() {
        core.close()
    }

    /// Closes the client, as ``close()`` does, and waits until the tail of closing has ended: the
    /// last telemetry batch (sent or given up at its deadline) and the last write of the kept values.
    @_spi(Testing)
    public func closeAndWait() async {
        core.close()
        await core.closed()
    }
}
