@_spi(Internal) @_spi(Locking) internal import ConfigModel
@_spi(Internal) internal import ConfigStore
@_spi(Internal) internal import ConfigTransport
internal import Foundation

/// The client's machinery, owned by a ``ConfigDirectorClient`` and closed when it is released.
///
/// Locks: `state` guards every changing fact of the client. It is striped: an evaluation holds the
/// stripe of its thread, where it also counts itself for telemetry, and everything else holds every
/// stripe (see ``StripedLock``). While it is held, the core may take the locks of its broadcasts
/// and telemetry collector, never the other way around, so that updates are seen in one order by
/// every stream. It never runs the app's code: watchers refresh after it is released, in order.
final class ClientCore: Sendable {
    let options: ConfigDirectorClientOptions
    let logger: any ConfigDirectorLogger
    let state = StripedLock(ClientState(), stripe: TelemetryCache.init)
    let events = Broadcast<ClientEvent>(bufferSize: 256)
    let evaluations = Broadcast<ConfigEvaluation>(bufferSize: 256)
    private let dependencies: ClientDependencies
    private let operations = SerialOperationQueue()

    var telemetry: TelemetryCollector? { dependencies.telemetry }
    private var keptValues: KeptValuesStore? { dependencies.keptValues }
    private var offlineSet: ConfigSet? { dependencies.offlineSet }

    init(options: ConfigDirectorClientOptions, dependencies: ClientDependencies) {
        self.options = options
        self.logger = options.logger
        self.dependencies = dependencies
        telemetry?.drainCaches { [weak self] in self?.drainTelemetryCaches() ?? [] }
    }

    // MARK: - Operations

    /// Runs a connect for `context` after every operation called before it, and waits for it.
    ///
    /// `initialize` marks the client initializing when it is called, not when its turn comes, so that
    /// `isInitializing` is `true` as soon as the caller has started it.
    func enqueueConnect(_ context: ConfigDirectorContext?, reason: ConnectReason) async {
        if reason == .initialization {
            state.withLock { state in
                if !state.isClosed, state.source != .live { state.isInitializing = true }
            }
        }
        await operations.enqueue { [self] in await connect(context, reason: reason) }.value
    }

    private func connect(_ requested: ConfigDirectorContext?, reason: ConnectReason) async {
        let context = validated(requested)
        let attempt = ConnectionAttempt(context: context, reason: reason)
        let loadsKeptValues: Bool? = state.withLock { state in
            guard !state.isClosed else { return nil }
            if reason == .contextUpdate { state.isReady = false }
            if reason != .networkResume {
                state.requestedContext = context
                state.hasRequestedConnection = true
            }
            state.isPaused = false
            state.isPausedByLifecycle = false
            state.attempt = attempt
            state.hasAppliedAttemptContext = false
            state.pendingReadyReason = reason
            return reason == .initialization && state.source == .none
        }
        guard let loadsKeptValues else { return }

        if let offlineSet {
            apply(offlineSet, isLive: true)
            return
        }
        if loadsKeptValues, let kept = await keptValues?.load(for: context) {
            apply(kept, isLive: false)
        }
        guard let transport = await transportForConnect() else {
            attempt.resolve(.interrupted)
            return finish(attempt, outcome: .interrupted)
        }
        let timeout = options.connection.timeout
        let clock = dependencies.clock
        let timer = Task {
            try await clock.sleep(seconds: timeout)
            attempt.resolve(.timedOut)
        }
        let connecting = Task {
            do throws(ConfigDirectorError) {
                if let reasonAware = transport as? any ConnectReasonAwareTransport {
                    try await reasonAware.connect(context: context, timeout: timeout, reason: reason)
                } else {
                    try await transport.connect(context: context, timeout: timeout)
                }
            } catch {
                attempt.resolve(.failed(error))
            }
        }
        let outcome = await attempt.outcome()
        timer.cancel()
        if outcome != .received { connecting.cancel() }
        finish(attempt, outcome: outcome)
    }

    /// The context sent for `context`: itself, or none when its kind is invalid (PROTOCOL §9).
    private func validated(_ context: ConfigDirectorContext?) -> ConfigDirectorContext? {
        guard let context, !context.hasValidKind else { return context }
        logger.error(
            "The context kind '\(context.kind ?? "")' is invalid: a kind is 1 to 64 of a-z, 0-9, '-' and '_'. "
                + "Configs are evaluated as if no context had been given."
        )
        return nil
    }

    private func transportForConnect() async -> (any Transport)? {
        if let transport = state.withLock({ $0.transport }) { return transport }
        guard let makeTransportFactory = dependencies.makeTransportFactory else { return nil }
        let factory = await makeTransportFactory()
        let made = factory.makeTransport { [weak self] event in self?.handle(event) }
        let (transport, isClosed) = state.withLock { state -> ((any Transport)?, Bool) in
            if state.isClosed { return (nil, true) }
            if state.transport == nil { state.transport = made }
            return (state.transport, false)
        }
        if isClosed || transport !== made { made.close() }
        return transport
    }

    private func finish(_ attempt: ConnectionAttempt, outcome: ConnectionAttempt.Outcome) {
        switch outcome {
        case .received:
            return
        case .timedOut, .interrupted:
            let servesKeptValues = state.withLock { $0.source == .keptValues }
            logger.warn(
                "ConfigDirector did not send config values within \(options.connection.timeout) seconds. "
                    + "The client keeps retrying in the background and serves "
                    + (servesKeptValues ? "the values kept on the device" : "default values") + " until they arrive."
            )
        case .failed(let error):
            let message =
                "The connection to ConfigDirector failed and will not be retried; the client keeps serving "
                + "the values it has. Check the client SDK key and the base URL"
            if dependencies.transportLogsRefusals {
                logger.debug(message, error: error)
            } else {
                logger.error(message, error: error)
            }
            state.withLock { state in
                state.isInitializing = false
                state.pendingReadyReason = nil
            }
        }
        applyContext(of: attempt)
    }

    // MARK: - Transport events

    private func handle(_ event: TransportEvent) {
        switch event {
        case .configSet(let set):
            apply(set, isLive: true)
        case .connectionState(.failed(let error)):
            let attempt = state.withLock { state -> ConnectionAttempt? in
                state.isInitializing = false
                return state.attempt
            }
            attempt?.resolve(.failed(error))
        case .connectionState(.stopped):
            logger.info("ConfigDirector ended the connection (204); the client serves what it has.")
        case .connectionState(.open):
            logger.debug("Connected to ConfigDirector.")
        case .connectionState(.reconnecting(let attempt, let delay)):
            logger.debug("Reconnecting to ConfigDirector in \(delay) s (attempt \(attempt)).")
        }
    }

    // MARK: - State changes

    /// Applies a config set: live from the service (or offline values), or kept from an earlier launch.
    ///
    /// A live set applies the attempt's context first, turns the client ready, and publishes
    /// `contextUpdated`, `ready` and `configsUpdated` in that order. Kept values are applied only
    /// while nothing else has been.
    ///
    /// The new table is built off the lock, from the current one, while evaluations go on reading
    /// that; under the lock it is published by assignment (rebuilt there only if another apply came
    /// first), and the table it replaces is released after the lock.
    func apply(_ set: ConfigSet, isLive: Bool) {
        let base = state.read { state, _ in state.pointee.table }
        var built = base.applying(set)
        let applied = state.withLockAndStripes {
            state, stripes -> (
                ConnectionAttempt?, ConfigSet, ConfigDirectorContext?, [WatcherRefresh], EvaluationTable
            )? in
            guard !state.isClosed, isLive || state.source == .none else { return nil }
            if isLive { applyAttemptContextLocked(&state, stripes) }
            if state.table.generation != base.generation { built = state.table.applying(set) }
            let update = built.update
            let replaced = state.table
            state.table = built.table
            state.source = isLive ? .live : .keptValues
            if isLive {
                state.isInitializing = false
                if let reason = state.pendingReadyReason {
                    state.pendingReadyReason = nil
                    state.isReady = true
                    events.send(.ready(reason))
                }
            }
            events.send(.configsUpdated(update))
            let refreshes = state.watchers.refreshes(of: update, in: state)
            let current = ConfigSet(
                environmentID: set.environmentID,
                projectID: set.projectID,
                kind: .full,
                timestamp: set.timestamp,
                configs: state.table.configs
            )
            return (isLive ? state.attempt : nil, current, state.context, refreshes, replaced)
        }
        guard let (attempt, current, context, refreshes, replaced) = applied else { return }
        withExtendedLifetime(replaced) {}  // released here, after the lock
        // After the lock: a refresh runs the app's code (its type's parse and `==`).
        for refresh in refreshes { refresh.run() }
        attempt?.resolve(.received)
        if isLive, offlineSet == nil { keptValues?.save(current, for: context) }
    }

    private func applyContext(of attempt: ConnectionAttempt) {
        state.withLockAndStripes { state, stripes in
            guard !state.isClosed, state.attempt === attempt else { return }
            applyAttemptContextLocked(&state, stripes)
        }
    }

    private func applyAttemptContextLocked(_ state: inout ClientState, _ stripes: ClientStripes) {
        guard let attempt = state.attempt, !state.hasAppliedAttemptContext else { return }
        state.hasAppliedAttemptContext = true
        guard attempt.reason != .networkResume else { return }
        let previous = state.context
        state.context = attempt.context
        if previous != attempt.context, let telemetry {
            telemetry.contextChanged(to: attempt.context, cached: Self.drainTelemetryCaches(stripes))
        }
        events.send(.contextUpdated(attempt.context))
    }

    // MARK: - Telemetry

    /// Every stripe's telemetry cache, reachable while every stripe is locked.
    typealias ClientStripes = StripedLock<ClientState, TelemetryCache>.Stripes

    /// Every stripe's telemetry cache, each taken in constant time under its own stripe's lock and
    /// drained after it: a flush of 50,000 keys never holds up an evaluation.
    private func drainTelemetryCaches() -> [TelemetryCache.Entry] {
        var taken: [TelemetryCache] = []
        state.updateEachStripe { cache in taken.append(cache.takeAll()) }
        var drained: [TelemetryCache.Entry] = []
        for index in taken.indices { taken[index].drain(into: &drained) }
        return drained
    }

    private static func drainTelemetryCaches(_ stripes: ClientStripes) -> [TelemetryCache.Entry] {
        var drained: [TelemetryCache.Entry] = []
        stripes.updateEach { cache in cache.drain(into: &drained) }
        return drained
    }

    // MARK: - Watchers

    func makeWatcherID() -> UInt64 {
        state.withLock { $0.watchers.makeID() }
    }

    /// Adds a watcher of `key` under `id` and yields its current value.
    /// - Returns: `false` when the client is closed and the watcher was not added.
    func addWatcher(_ watcher: any KeyWatcher, id: UInt64, for key: String) -> Bool {
        let first = state.withLock { state -> WatcherRefresh? in
            guard !state.isClosed else { return nil }
            state.watchers.add(watcher, id: id, for: key)
            return state.watchers.refresh(of: watcher, key: key, in: state)
        }
        first?.run()
        return first != nil
    }

    func removeWatcher(_ id: UInt64, for key: String) {
        state.withLock { $0.watchers.remove(id, for: key) }
    }

    // MARK: - Evaluations stream

    /// A new `evaluations` stream; the state records whether any is subscribed, so that evaluations
    /// read it with their snapshot instead of taking the broadcast's lock.
    func subscribeToEvaluations() -> AsyncStream<ConfigEvaluation> {
        let stream = evaluations.subscribe { [weak self] in self?.refreshPublishesEvaluations() }
        refreshPublishesEvaluations()
        return stream
    }

    /// Reads the broadcast's subscribers under the state lock (the locks' order), so that the last
    /// refresh always records the truth.
    private func refreshPublishesEvaluations() {
        state.withLock { $0.publishesEvaluations = evaluations.hasSubscribers }
    }

    // MARK: - Network and lifecycle

    func pauseNetwork(byLifecycle: Bool = false) {
        let (transport, attempt) = state.withLock { state -> ((any Transport)?, ConnectionAttempt?) in
            guard !state.isClosed, !state.isPaused else { return (nil, nil) }
            state.isPaused = true
            state.isPausedByLifecycle = byLifecycle
            return (state.transport, state.attempt)
        }
        transport?.disconnect()
        attempt?.resolve(.interrupted)
    }

    func resumeNetwork() async {
        let context: ConfigDirectorContext?? = state.withLock { state in
            guard !state.isClosed, state.hasRequestedConnection else { return nil }
            return .some(state.requestedContext)
        }
        guard let context else { return }
        await enqueueConnect(context, reason: .networkResume)
    }

    func handle(_ event: AppLifecycleEvent) {
        switch event {
        case .didEnterBackground:
            telemetry?.flush()
            if options.connection.pausesWhileBackgrounded { pauseNetwork(byLifecycle: true) }
        case .willEnterForeground:
            let resumes = state.withLock { $0.isPausedByLifecycle && !$0.isClosed }
            if resumes { Task { await resumeNetwork() } }
        }
    }

    /// Closes everything the client started: the connection, every stream, telemetry and the store.
    func close() {
        let closed = state.withLock { state -> ((any Transport)?, ConnectionAttempt?, [any KeyWatcher])? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.isInitializing = false
            defer { state.transport = nil }
            return (state.transport, state.attempt, state.watchers.removeAll())
        }
        guard let (transport, attempt, watchers) = closed else { return }
        attempt?.resolve(.interrupted)
        transport?.close()
        for watcher in watchers { watcher.finish() }
        events.finish()
        evaluations.finish()
        dependencies.lifecycleObserver.stop()
        telemetry?.close()
        if let keptValues { Task { await keptValues.close() } }
    }
}
