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
/// `observe()` first receives the current status. A refusal of the SDK key for good reports `error`
/// with the code `providerFatal` (status `fatal`); a later context change connects again.
/// Evaluation is synchronous and never throws: a value that cannot be served resolves to the caller's
/// default value, with an error code and a message. The provider closes a client it created when it
/// is released or when ``close()`` is called.
public final class ConfigDirectorProvider: FeatureProvider, Sendable {
    let lifecycle: ProviderLifecycle

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
    ///
    /// Context changes reach the client in the order OpenFeature made them, each after the one before
    /// it; one superseded before its turn is skipped, and only the newest reports how it ended.
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
#endif
