@_spi(Internal) @_spi(Testing) public import ConfigClient
@_spi(Internal) @_spi(Locking) public import ConfigModel
@_spi(Internal) public import ConfigTransport

/// The in-memory server of a test client, which is also its client's transport.
///
/// It serves the stored values to every context: in full on each connect, then as the test changes
/// them, while connected. The test arms it to hold or fail the next `initialize` or `updateContext`;
/// `resumeNetwork` is always served at once. It starts no task and no timer: a held connect is a
/// connection that stays silent until a control completes or fails it, or `disconnect`, `close` or a
/// newer connect replaces it, or the client stops waiting for it (its own deadline passed): the
/// controls then act as if nothing were held, and the next attempt delivers.
///
/// Deliveries are made while the lock is held, so that updates reach the client in the order the test
/// made them; the client never calls its transport while holding its own lock.
///
/// It is also the in-memory transport of the client's tests and of the benchmarks (`@_spi(Testing)`),
/// which reach it through ``InMemoryTransportFactory`` and feed it sets as the service sends them with
/// ``serve(_:)``; each value is turned into its config state once, when it is set.
@_spi(Testing) public final class InMemoryServer: Transport {
    /// What the next `initialize` or `updateContext` is armed to do.
    enum Arming {
        case serve
        case hold
        case fail
    }

    struct State {
        /// What the server serves: the config state of each value, by key.
        var configs: [ExactKey: ConfigState]
        var initialization = Arming.serve
        var contextUpdate = Arming.serve
        /// The reason of the connect being held, silent until completed or failed.
        var held: ConnectReason?
        /// Whether the client holds a connection that was served, so that changes are delivered.
        var isConnected = false
        var isClosed = false
        var contextUpdates: [ConfigDirectorContext] = []
        var handler: (@Sendable (TransportEvent) -> Void)?
        /// Whether the client still waits for the connect held; its deadline ends the hold.
        var isConnectAwaited: @Sendable () -> Bool = { true }
    }

    private let logger: any ConfigDirectorLogger
    private let state: Locked<State>

    /// A server of `values`, which logs what it does at debug level to `logger`.
    public init(values: [String: ServedValue], logger: any ConfigDirectorLogger) {
        self.logger = logger
        state = Locked(State(configs: Self.configs(of: values)))
    }

    /// Starts delivering to `handler`, the client's.
    func attach(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.handler = handler
        }
    }

    /// Follows whether the client still waits for a connect, so that its deadline ends a hold.
    func follow(isConnectAwaited: @escaping @Sendable () -> Bool) {
        state.withLock { $0.isConnectAwaited = isConnectAwaited }
    }

    // MARK: - Controls

    var contextUpdates: [ConfigDirectorContext] { state.withLock { $0.contextUpdates } }

    func setValue(_ value: ServedValue, for key: String) {
        let config = value.configState(forKey: key)
        state.withLock { state in
            guard !state.isClosed else { return }
            state.configs[ExactKey(key)] = config
            guard state.isConnected else { return }
            state.handler?(.configSet(ConfigSet(kind: .delta, configs: [ExactKey(key): config])))
        }
    }

    func removeValue(for key: String) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.configs[ExactKey(key)] = nil
            if state.isConnected { Self.deliverAllLocked(&state) }
        }
    }

    func replaceValues(_ values: [String: ServedValue]) {
        let configs = Self.configs(of: values)
        state.withLock { state in
            guard !state.isClosed else { return }
            state.configs = configs
            state.initialization = .serve
            state.contextUpdate = .serve
            if state.isConnected { Self.deliverAllLocked(&state) }
        }
    }

    /// Serves `set` as the service sends it: a full set replaces every config, a delta changes its keys;
    /// while connected, `set` itself is delivered. For what a ``ServedValue`` cannot say: configs without a
    /// value id or with a config id, a value that does not parse as its type, several keys in one delta.
    public func serve(_ set: ConfigSet) {
        state.withLock { state in
            guard !state.isClosed else { return }
            switch set.kind {
            case .full: state.configs = set.configs
            case .delta: state.configs.merge(set.configs) { _, new in new }
            }
            guard state.isConnected else { return }
            state.handler?(.configSet(set))
        }
    }

    func hold(_ reason: ConnectReason) {
        state.withLock { state in
            guard !state.isClosed else { return }
            Self.setArming(.hold, for: reason, in: &state)
        }
    }

    func complete(_ reason: ConnectReason) {
        state.withLock { state in
            guard !state.isClosed else { return }
            Self.endHoldIfAbandonedLocked(&state)
            if state.held == reason {
                state.held = nil
                Self.deliverAllLocked(&state)
            } else if Self.arming(for: reason, in: state) == .hold {
                Self.setArming(.serve, for: reason, in: &state)
            }
        }
    }

    func fail(_ reason: ConnectReason) {
        state.withLock { state in
            guard !state.isClosed else { return }
            Self.endHoldIfAbandonedLocked(&state)
            if state.held == reason {
                state.held = nil
                state.handler?(.connectionState(.failed(Self.refusal(for: reason))))
            } else {
                Self.setArming(.fail, for: reason, in: &state)
            }
        }
    }

    // MARK: - Transport

    /// Serves the connect, or holds or refuses it as armed.
    public func connect(context: ConfigDirectorContext?, reason: ConnectReason) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.held = nil
            state.isConnected = false
            if reason != .networkResume { state.contextUpdates.append(context ?? ConfigDirectorContext()) }
            let arming = Self.arming(for: reason, in: state)
            Self.setArming(.serve, for: reason, in: &state)
            switch arming {
            case .serve:
                Self.deliverAllLocked(&state)
            case .fail:
                logger.debug("The test client's server refused the \(reason) connect, as armed.")
                state.handler?(.connectionState(.failed(Self.refusal(for: reason))))
            case .hold:
                logger.debug("The test client's server holds the \(reason) connect until it is completed or failed.")
                state.held = reason
            }
        }
    }

    /// Ends the connection: changes are no longer delivered until the next connect.
    public func disconnect() {
        state.withLock { state in
            state.isConnected = false
            state.held = nil
        }
    }

    /// Stops the server for good.
    public func close() {
        state.withLock { state in
            state.isClosed = true
            state.isConnected = false
            state.held = nil
            state.handler = nil
        }
    }

    // MARK: - Helpers

    /// Ends the hold when the client no longer waits for it: its deadline passed, or a pause ended it.
    private static func endHoldIfAbandonedLocked(_ state: inout State) {
        if state.held != nil, !state.isConnectAwaited() { state.held = nil }
    }

    private static func deliverAllLocked(_ state: inout State) {
        state.isConnected = true
        state.handler?(.configSet(ConfigSet(kind: .full, configs: state.configs)))
    }

    private static func configs(of values: [String: ServedValue]) -> [ExactKey: ConfigState] {
        Dictionary(uniqueKeysWithValues: values.map { (ExactKey($0), $1.configState(forKey: $0)) })
    }

    private static func arming(for reason: ConnectReason, in state: State) -> Arming {
        switch reason {
        case .initialization: state.initialization
        case .contextUpdate: state.contextUpdate
        case .networkResume: .serve
        }
    }

    private static func setArming(_ arming: Arming, for reason: ConnectReason, in state: inout State) {
        switch reason {
        case .initialization: state.initialization = arming
        case .contextUpdate: state.contextUpdate = arming
        case .networkResume: break
        }
    }

    /// The error of a refused connect: what the service answers to an invalid client SDK key.
    private static func refusal(for reason: ConnectReason) -> ConfigDirectorError {
        let control = reason == .contextUpdate ? "failContextUpdate()" : "failInitialization()"
        return .connectionFailed(message: "the test client refused the connection (\(control))", statusCode: 401)
    }
}
