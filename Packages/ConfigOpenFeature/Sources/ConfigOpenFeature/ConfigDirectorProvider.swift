#if OpenFeature
public import Combine  // Apple's Combine; on Linux the OpenFeature kit's shim over OpenCombine
@_spi(Internal) public import ConfigClient
@_spi(Internal) @_spi(Locking) public import ConfigModel
public import OpenFeature

/// The ConfigDirector provider for the OpenFeature Swift SDK: it wraps a ``ConfigDirectorClient``
/// and resolves flags from the config values the client holds in memory.
///
/// ```swift
/// let provider = try ConfigDirectorProvider(clientSDKKey: "YOUR-CLIENT-SDK-KEY")
/// await OpenFeatureAPI.shared.setProviderAndWait(
///     provider: provider,
///     initialContext: ImmutableContext(targetingKey: "user-123")
/// )
/// let client = OpenFeatureAPI.shared.getClient()
/// ```
///
/// Its status and events go through OpenFeature's `ProviderStatusTracker`, so a new subscriber of
/// `observe()` first receives the current status. Evaluation is synchronous and never throws: a
/// value that cannot be served resolves to the caller's default value. The provider closes a client
/// it created when it is released or when ``close()`` is called.
public final class ConfigDirectorProvider: FeatureProvider, Sendable {
    private let lifecycle: ProviderLifecycle

    /// Creates a provider that connects to ConfigDirector with a client SDK key.
    ///
    /// Creating it makes no network call; registering it with OpenFeature connects.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key of your environment, from "SDK keys" in the dashboard.
    ///   - options: The options of the client it creates.
    /// - Throws: ``ConfigDirectorError/missingClientSDKKey`` when the key is blank outside `.offline`
    ///   mode, ``ConfigDirectorError/invalidBaseURL(_:)`` when a custom base URL is not absolute,
    ///   ``ConfigDirectorError/valuesRequireOfflineMode`` when values are given outside `.offline` mode,
    ///   and ``ConfigDirectorError/invalidOfflineValue(key:reason:)`` when one of them cannot be served.
    public convenience init(
        clientSDKKey: String,
        options: ConfigDirectorClientOptions = ConfigDirectorClientOptions()
    ) throws(ConfigDirectorError) {
        let client = try ConfigDirectorClient(
            clientSDKKey: clientSDKKey,
            options: options,
            sdkName: ConfigDirectorSDK.openFeatureProviderSDKName
        )
        self.init(client: client, ownsClient: true)
    }

    /// Creates a provider without an SDK key, for `.offline` mode: it serves the values of the options
    /// and connects to nothing.
    /// - Parameter options: The options; `connection.mode` must be `.offline`.
    /// - Throws: ``ConfigDirectorError/missingClientSDKKey`` when the mode is not `.offline`, and
    ///   ``ConfigDirectorError/invalidOfflineValue(key:reason:)`` when a value cannot be served.
    public convenience init(options: ConfigDirectorClientOptions) throws(ConfigDirectorError) {
        try self.init(clientSDKKey: "", options: options)
    }

    /// Creates a provider around a client you made, such as a test client of `ConfigDirectorTesting`.
    ///
    /// The provider initializes the client when it is registered and updates its context whenever the
    /// evaluation context changes, but never closes it: close it yourself when you are done.
    /// - Parameter injectedClient: The client to resolve flags with.
    @_spi(Testing)
    public convenience init(injectedClient: ConfigDirectorClient) {
        self.init(client: injectedClient, ownsClient: false)
    }

    private init(client: ConfigDirectorClient, ownsClient: Bool) {
        lifecycle = ProviderLifecycle(client: client, ownsClient: ownsClient)
    }

    deinit {
        lifecycle.close()
    }

    /// Stops reporting events and closes the client the provider created (never a client it was
    /// given). Calling it again does nothing; the provider cannot be used afterwards.
    public func close() {
        lifecycle.close()
    }

    // MARK: - Identity

    /// The provider's name, `ConfigDirectorProvider`.
    public var metadata: any ProviderMetadata { Metadata() }

    /// The provider's hooks: none.
    public var hooks: [any Hook] { [] }

    private struct Metadata: ProviderMetadata {
        var name: String? { "ConfigDirectorProvider" }
    }

    // MARK: - Status and events

    /// The provider's status, as its last event set it.
    public var status: ProviderStatus { lifecycle.tracker.status }

    /// The provider's events; a new subscriber first receives the current status (none while `notReady`).
    /// - Returns: The publisher of events.
    public func observe() -> AnyPublisher<ProviderEvent, Never> {
        lifecycle.tracker.observe()
    }

    /// Initializes the client with the mapped context; the future resolves once `ready` or `error` was sent.
    /// - Parameter initialContext: The evaluation context to connect with.
    /// - Returns: A future that resolves when the client is ready or its connection timed out or failed.
    public func initialize(initialContext: (any EvaluationContext)?) -> Future<Void, Never> {
        let context = initialContext.map(Self.context(of:))
        return lifecycle.run(.initialization) { client in await client.initialize(context: context) }
    }

    /// Reconnects the client with the new context: `reconciling`, then `contextChanged` or `error`.
    /// - Parameters:
    ///   - oldContext: The previous evaluation context.
    ///   - newContext: The new evaluation context.
    /// - Returns: A future that resolves when the client is ready or its connection timed out or failed.
    public func onContextSet(
        oldContext: (any EvaluationContext)?,
        newContext: any EvaluationContext
    ) -> Future<Void, Never> {
        let context = Self.context(of: newContext)
        return lifecycle.run(.contextUpdate) { client in await client.updateContext(context) }
    }

    // MARK: - Evaluation

    /// A boolean config's value, or `defaultValue`; a served value carries its value id as `variant`.
    public func getBooleanEvaluation(
        key: String,
        defaultValue: Bool,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<Bool> {
        Self.evaluation(lifecycle.client.resolution(for: key, default: defaultValue))
    }

    /// A string or enum config's value, or `defaultValue`.
    public func getStringEvaluation(
        key: String,
        defaultValue: String,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<String> {
        Self.evaluation(lifecycle.client.resolution(for: key, default: defaultValue))
    }

    /// A number config's value as an `Int64`: exact 64-bit text first, else truncated toward zero;
    /// out of range gives `defaultValue`.
    public func getIntegerEvaluation(
        key: String,
        defaultValue: Int64,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<Int64> {
        let resolution = lifecycle.client.resolution(for: key, default: OpenFeatureInteger(defaultValue))
        return ProviderEvaluation(value: resolution.value.value, variant: resolution.valueID)
    }

    /// A number config's value as a `Double`, or `defaultValue`.
    public func getDoubleEvaluation(
        key: String,
        defaultValue: Double,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<Double> {
        Self.evaluation(lifecycle.client.resolution(for: key, default: defaultValue))
    }

    /// A JSON config's document: an object as `.structure`, an array as `.list`; otherwise `defaultValue`.
    public func getObjectEvaluation(
        key: String,
        defaultValue: Value,
        context: (any EvaluationContext)?
    ) -> ProviderEvaluation<Value> {
        let resolution = lifecycle.client.resolution(
            for: key,
            as: JSONValue.self,
            default: .null,
            defaultText: String(describing: defaultValue)
        )
        guard resolution.valueID != nil else { return ProviderEvaluation(value: defaultValue) }
        switch resolution.value {
        case .dictionary, .array:
            return ProviderEvaluation(value: Self.value(of: resolution.value), variant: resolution.valueID)
        default:
            return ProviderEvaluation(value: defaultValue)
        }
    }

    private static func evaluation<Served>(_ resolution: ServedResolution<Served>) -> ProviderEvaluation<Served> {
        ProviderEvaluation(value: resolution.value, variant: resolution.valueID)
    }

    // MARK: - Conversions

    /// The ConfigDirector context of an evaluation context (see the reference page's table).
    static func context(of evaluationContext: any EvaluationContext) -> ConfigDirectorContext {
        EvaluationContextMapping.context(
            targetingKey: evaluationContext.getTargetingKey(),
            attributes: evaluationContext.asMap().mapValues(traitValue(of:))
        )
    }

    /// An OpenFeature value as a trait: dates as UTC ISO-8601 text with milliseconds.
    static func traitValue(of value: Value) -> ConfigDirectorContext.TraitValue {
        switch value {
        case .boolean(let value): .bool(value)
        case .string(let value): .string(value)
        case .integer(let value): Int(exactly: value).map { .int($0) } ?? .double(Double(value))
        case .double(let value): .double(value)
        case .date(let value): .string(EvaluationContextMapping.traitText(of: value))
        case .list(let values): .array(values.map(traitValue(of:)))
        case .structure(let members): .dictionary(members.mapValues(traitValue(of:)))
        case .null: .null
        }
    }

    /// A JSON value as an OpenFeature value: whole numbers that fit as `.integer`, others as `.double`.
    static func value(of json: JSONValue) -> Value {
        switch json {
        case .bool(let value): .boolean(value)
        case .string(let value): .string(value)
        case .int(let value): .integer(Int64(value))
        case .double(let value): Int64(exactly: value).map { .integer($0) } ?? .double(value)
        case .array(let values): .list(values.map(value(of:)))
        case .dictionary(let members): .structure(members.mapValues(value(of:)))
        case .null: .null
        }
    }
}

/// What the provider runs on: the client, the status tracker, and the relay of the client's events.
///
/// Every event is sent under one lock, together with the reads it is decided from, so that a
/// lifecycle call and a client event arriving at once cannot report out of order; nothing is sent
/// after ``close()``.
private final class ProviderLifecycle: Sendable {
    /// The operations that connect the client.
    enum Operation {
        case initialization, contextUpdate
    }

    private struct State {
        var isClosed = false
        /// The `initialize` and `onContextSet` calls still connecting; while any is, they report the
        /// client's `ready` themselves.
        var operationsInFlight = 0
        /// The number of the newest operation begun; only the newest reports how it ended.
        var newestOperation = 0
        var relay: Task<Void, Never>?
    }

    let client: ConfigDirectorClient
    let tracker = ProviderStatusTracker()
    private let ownsClient: Bool
    private let state = Locked(State())

    init(client: ConfigDirectorClient, ownsClient: Bool) {
        self.client = client
        self.ownsClient = ownsClient
        let events = client.events
        let relay = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                self.relay(event)
            }
        }
        state.withLock { $0.relay = relay }
    }

    /// Runs a connect of the client in a task, and resolves the future after its outcome was sent.
    func run(
        _ operation: Operation,
        connect: @escaping @Sendable (ConfigDirectorClient) async -> Void
    ) -> Future<Void, Never> {
        let number: Int? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.operationsInFlight += 1
            state.newestOperation += 1
            if operation == .contextUpdate { tracker.send(.reconciling()) }
            return state.newestOperation
        }
        return Future { promise in
            guard let number else { return promise(.success(())) }
            let resolve = UncheckedPromise(promise)
            Task {
                await connect(self.client)
                self.finish(operation, number: number)
                resolve()
            }
        }
    }

    private func finish(_ operation: Operation, number: Int) {
        state.withLock { state in
            state.operationsInFlight -= 1
            guard !state.isClosed, number == state.newestOperation else { return }
            if client.isReady {
                tracker.send(operation == .initialization ? .ready() : .contextChanged())
                return
            }
            let message =
                switch operation {
                case .initialization: "The ConfigDirector client did not become ready during initialization."
                case .contextUpdate: "The ConfigDirector client did not become ready for the new context."
                }
            tracker.send(.error(ProviderEventDetails(message: message, errorCode: .general)))
            if client.valueSource != .none { tracker.send(.stale()) }
        }
    }

    /// Reports one of the client's events.
    private func relay(_ event: ClientEvent) {
        state.withLock { state in
            guard !state.isClosed else { return }
            switch event {
            case .configsUpdated(let update):
                tracker.send(
                    .configurationChanged(ProviderEventDetails(flagsChanged: update.keys + update.removedKeys)))
                if client.valueSource == .keptValues, tracker.status != .stale { tracker.send(.stale()) }
            case .ready:
                // A ready that an operation is waiting for is that operation's to report; one that came
                // later (a background retry, a resume) reports `ready` only after an error or stale values.
                guard state.operationsInFlight == 0, tracker.status != .ready, client.isReady else { return }
                tracker.send(.ready())
            case .contextUpdated:
                break
            }
        }
    }

    func close() {
        let (wasOpen, relay) = state.withLock { state in
            defer {
                state.isClosed = true
                state.relay = nil
            }
            return (!state.isClosed, state.relay)
        }
        guard wasOpen else { return }
        relay?.cancel()
        if ownsClient { client.close() }
    }
}

/// A future's promise, which OpenFeature calls from any thread, carried into the task that fulfils it.
private struct UncheckedPromise: @unchecked Sendable {  // Future's promise is thread safe, not Sendable.
    private let promise: (Result<Void, Never>) -> Void

    init(_ promise: @escaping (Result<Void, Never>) -> Void) {
        self.promise = promise
    }

    func callAsFunction() {
        promise(.success(()))
    }
}
#endif
