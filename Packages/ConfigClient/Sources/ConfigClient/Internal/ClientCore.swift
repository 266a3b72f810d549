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
    let state = StripedLock(ClientState(), stripe: EvaluationStripe.init)
    let events = Broadcast<ClientEvent>(bufferSize: 256)
    let evaluations = Broadcast<ConfigEvaluation>(bufferSize: 256)
    /// The connection's health at each change (see `ClientCore+Health.swift`).
    let healthUpdates = Broadcast<ConnectionHealth>(bufferSize: 64)
    /// Turns the health from waiting to retry to connecting when the retry's time comes; not a task of `tasks`,
    /// which ``wentQuiet()`` waits for, since a backoff may last minutes.
    let retryTimer = Locked<Task<Void, Never>?>(nil)
    let dependencies: ClientDependencies
    private let operations = SerialQueue()
    /// The tasks the client starts (connect deadlines, kept-values loads, foreground resumes), all
    /// cancelled by `close()`.
    private let tasks = TaskSet()
    /// The transport and whether it was closed, guarded apart from the state: the transport is told
    /// things with this lock held and the state's released, so that its calls keep their order.
    private let transportCalls = Locked(TransportCalls())
    /// The tail of `close()`, once it was called.
    private let closing = Locked<Task<Void, Never>?>(nil)
    /// How many sets began to apply, guarded by the lock that an apply holds from its build to the
    /// save of the kept values (taken before the state's lock, never under it), so that applies take
    /// turns. (A `Locked<Void>` made ThreadSanitizer report the zero-sized value's accesses as a race.)
    private let applies = Locked<UInt64>(0)
    /// The telemetry timer's sleep, replaced by each flush that sends (see ``scheduleTelemetryFlush(after:)``).
    let telemetryTimer = Locked<Task<Void, Never>?>(nil)
    /// Whether the kept values are still loading, and whether a slow load was reported.
    private let keptValuesLoad = Locked(KeptValuesLoad())

    private struct KeptValuesLoad {
        var isLoading = false
        var hasWarned = false
        /// Finishes once the load has ended.
        var loaded: AsyncStream<Never>?
    }

    private struct TransportCalls {
        var transport: (any Transport)?
        var isClosed = false
    }

    var telemetry: TelemetryCollector? { dependencies.telemetry }
    /// Whether telemetry counts evaluations: read apart from the collector so that counting one
    /// retains nothing (the collector is weakly referenced, so each retain of it takes the slow path).
    let countsEvaluations: Bool
    private var keptValues: KeptValuesStore? { dependencies.keptValues }
    private var offlineSet: ConfigSet? { dependencies.offlineSet }
    /// Crash-loop safe mode, when it is on.
    var launchGuard: LaunchGuard? { dependencies.launchGuard }

    init(options: ConfigDirectorClientOptions, dependencies: ClientDependencies) {
        self.options = options
        self.logger = options.logger
        self.dependencies = dependencies
        countsEvaluations = dependencies.telemetry != nil
        if telemetry != nil { scheduleTelemetryFlush(after: TelemetryCollector.firstFlushDelay) }
    }

    // MARK: - State

    /// The context configs are evaluated against, once it has taken effect.
    var context: ConfigDirectorContext? { state.read { state, _ in state.pointee.context } }

    /// Whether config state arrived for the current context (see ``ClientState/isReady``).
    var isReady: Bool { state.read { state, _ in state.pointee.isReady } }

    /// Whether the client waits for its very first config state.
    var isInitializing: Bool { state.read { state, _ in state.pointee.isInitializing } }

    /// Where the values served come from.
    var source: ConfigValueSource { state.read { state, _ in state.pointee.source } }

    /// The refusal for good that stopped the newest connect, if any.
    var refusal: ConfigDirectorError? { state.read { state, _ in state.pointee.refusal } }

    /// Whether a connect's caller still waits for its config state.
    var isAwaitingConnect: Bool {
        state.read { state, _ in
            if case .connecting(let connect) = state.pointee.lifecycle { return connect.isCallerWaiting }
            return false
        }
    }

    // MARK: - Operations

    /// Runs a connect for `context` after every operation called before it, and waits until its
    /// config set arrives, its deadline passes, or a refusal, a pause or `close` ends it.
    ///
    /// `initialize` marks the client initializing when it is called, not when its turn comes, so that
    /// `isInitializing` is `true` as soon as the caller has started it.
    /// - Parameter context: The context to connect with; `.current` for `resumeNetwork`, which
    ///   re-applies the context in effect when its turn comes.
    func enqueueConnect(_ context: RequestedContext, reason: ConnectReason) async {
        if reason == .initialization { state.withLock { $0.initializeCalled() } }
        let requested: RequestedContext =
            switch context {
            case .given(let given): .given(validated(given))
            case .current: .current
            }
        let attempt = ConnectionAttempt(reason: reason)
        operations.enqueue { [self] in await connect(attempt, requested: requested) }
        _ = await attempt.outcome()
    }

    /// The context a connect is asked to use.
    enum RequestedContext {
        /// The context of `initialize` or `updateContext`.
        case given(ConfigDirectorContext?)
        /// The context in effect, for `resumeNetwork`.
        case current
    }

    /// Begins the connect of `attempt`, tells the transport, and waits, as its caller does, until the
    /// attempt's wait ends, so that the next operation's connect never overtakes it.
    private func connect(_ attempt: ConnectionAttempt, requested: RequestedContext) async {
        let reason = attempt.reason
        let begun = state.withLock { state -> (context: ConfigDirectorContext?, loadsKeptValues: Bool)? in
            let context =
                switch requested {
                case .given(let given): given
                case .current: state.context
                }
            guard state.beginConnect(attempt, context: context) != nil else { return nil }
            publishHealthLocked(&state)
            return (context, reason == .initialization && state.source.yieldsToKeptValues)
        }
        guard let (context, loadsKeptValues) = begun else { return attempt.resolve(.interrupted) }

        if let offlineSet {
            return apply(offlineSet, isLive: true)
        }
        if reason == .initialization, let launchGuard {
            await launchGuard.startLaunch(context: context)
        }
        if loadsKeptValues {
            // In safe mode, the last values that ran well take the place of the values kept on the device.
            if let safeSet = await launchGuard?.safeSet(for: context) {
                apply(safeSet, isLive: false)
            } else {
                loadKeptValues(for: context)
            }
        }
        let deadline = startDeadline(of: attempt)
        defer { tasks.cancel(deadline) }
        // The transport is made (its instance id read) while the kept values load: neither waits for the other.
        if let transport = await transportForConnect() {
            transportCalls.withLock { _ in
                // Checked with the transport's lock held, so that a pause or a close that comes after
                // the check also comes after this connect.
                guard state.withLock({ $0.isConnecting(attempt) }) else { return }
                transport.connect(context: context, reason: reason)
            }
        }
        _ = await attempt.outcome()
    }

    /// Starts the deadline of `attempt`'s wait, which the client alone owns.
    /// - Returns: The deadline's task, to cancel once the wait ended otherwise.
    private func startDeadline(of attempt: ConnectionAttempt) -> UInt64? {
        let timeout = options.connection.timeout
        let clock = dependencies.clock
        return tasks.start { [weak self] in
            guard (try? await clock.sleep(seconds: timeout)) != nil, !Task.isCancelled else { return }
            self?.transition { state in state.deadlinePassed(for: attempt) }
        }
    }

    /// Loads the values kept for `context` in a task of the client's, and serves them unless
    /// something else was served first.
    private func loadKeptValues(for context: ConfigDirectorContext?) {
        guard let keptValues, keptValues.isEnabled else { return }
        let (loaded, finish) = AsyncStream.makeStream(of: Never.self)
        keptValuesLoad.withLock { load in
            load.isLoading = true
            load.loaded = loaded
        }
        tasks.start { [weak self] in
            defer { finish.finish() }
            let kept = await keptValues.load(for: context)
            self?.keptValuesLoad.withLock { $0.isLoading = false }
            if let kept { self?.apply(kept, isLive: false) }
        }
    }

    /// Waits until the values kept on the device were loaded and served (or found missing), or the
    /// client closed; returns at once when no load was started.
    func keptValuesLoaded() async {
        guard let loaded = keptValuesLoad.withLock({ $0.loaded }) else { return }
        for await _ in loaded {}
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

    /// The transport, made on the first connect; `nil` once the client is closed or in `.offline` mode.
    private func transportForConnect() async -> (any Transport)? {
        if let transport = transportCalls.withLock({ $0.transport }) { return transport }
        guard let makeTransportFactory = dependencies.makeTransportFactory else { return nil }
        let factory = await makeTransportFactory()
        let made = factory.makeTransport { [weak self] event in self?.handle(event) }
        let transport = transportCalls.withLock { calls -> (any Transport)? in
            if calls.isClosed { return nil }
            if calls.transport == nil { calls.transport = made }
            return calls.transport
        }
        if transport !== made { made.close() }
        return transport
    }

    // MARK: - Transitions

    /// Runs a lifecycle transition under the lock, publishes its events and reports a context that
    /// took effect there, then does the rest after the lock.
    @discardableResult
    private func transition(_ change: (inout ClientState) -> Transition?) -> Transition? {
        let made = state.withLockAndStripes { state, stripes -> Transition? in
            defer { publishHealthLocked(&state) }
            guard let transition = change(&state) else { return nil }
            publishLocked(transition, context: state.context, stripes)
            return transition
        }
        guard let made else { return nil }
        finish(made)
        return made
    }

    /// What a transition does while the lock is held: its events, in order, and the telemetry of a
    /// context that took effect.
    private func publishLocked(_ transition: Transition, context: ConfigDirectorContext?, _ stripes: ClientStripes) {
        if transition.appliesContext { flushTelemetry(stripes, changingContextTo: context) }
        for event in transition.events { events.send(event) }
    }

    /// What a transition does after the lock: the log line, the transport, the caller.
    private func finish(_ transition: Transition) {
        switch transition.log {
        case .timedOut(let reason, let servesKeptValues):
            logger.warn(
                "Timed out waiting for \(reason) after \(options.connection.timeout)s. "
                    + "The client keeps retrying in the background and serves "
                    + (servesKeptValues ? "the values kept on the device" : "default values")
                    + " until config values arrive."
            )
            warnIfKeptValuesAreSlow()
        case .failed(let reason, let error):
            // The error's message quotes the server's body, which may echo the context: it went to debug.
            var what = "the connection failed"
            if let statusCode = error.refusedStatusCode {
                what = "the connection was refused (HTTP \(statusCode))"
            }
            logger.error(
                "An error occurred during \(reason): \(what). The error is unrecoverable: the client will not "
                    + "reconnect and keeps serving the values it has."
            )
        case .stopped:
            logger.info("ConfigDirector ended the connection (204); the client serves what it has.")
        case nil:
            break
        }
        switch transition.transportCall {
        case .disconnect:
            transportCalls.withLock { $0.transport?.disconnect() }
        case .close:
            let transport = transportCalls.withLock { calls -> (any Transport)? in
                calls.isClosed = true
                defer { calls.transport = nil }
                return calls.transport
            }
            transport?.close()
        case nil:
            break
        }
        if let (attempt, outcome) = transition.release { attempt.resolve(outcome) }
    }

    /// Logs once when the caching provider has not returned the kept values by a connect deadline.
    private func warnIfKeptValuesAreSlow() {
        let warns = keptValuesLoad.withLock { load in
            defer { if load.isLoading { load.hasWarned = true } }
            return load.isLoading && !load.hasWarned
        }
        guard warns else { return }
        logger.warn(
            "The caching provider has not returned the values kept on the device within the connection timeout; "
                + "the client connects without waiting for them."
        )
    }

    // MARK: - Transport events

    private func handle(_ event: TransportEvent) {
        switch event {
        case .configSet(let set):
            apply(set, isLive: true)
        case .connectionState(.failed(let error)):
            let now = dependencies.clock.now()
            transition { state in
                state.connectionEnded(refusal: error, at: now)
                return state.connectionFailed(error)
            }
        case .connectionState(.stopped):
            let now = dependencies.clock.now()
            transition { state in
                state.connectionEnded(refusal: nil, at: now)
                return state.connectionStopped()
            }
        case .connectionState(.open):
            logger.debug("Connected to ConfigDirector.")
            connectionOpened()
        case .connectionState(.reconnecting(let attempt, let delay, let failure)):
            logger.debug("Reconnecting to ConfigDirector in \(delay) s (attempt \(attempt)).")
            connectionWillRetry(after: failure, delay: delay)
        }
    }

    // MARK: - Config sets

    /// Applies a config set: live from the service (or offline values), or kept from an earlier launch.
    ///
    /// A live set goes through the lifecycle first: the waiting connect's context applies
    /// (`contextUpdated`) and the client turns ready (`ready`); then the table applies it
    /// (`configsUpdated`), and the watchers re-evaluate after the lock. Kept values are applied only
    /// while nothing else has been. Under ``UpdatePolicy/onActivate``, a live set that does not end an
    /// `initialize` or an `updateContext` goes through the lifecycle and waits as pending instead
    /// (``holdBack(_:)``); ``activate()`` applies it.
    ///
    /// The new table is built off the lock, from the current one, while evaluations go on reading
    /// that; under the lock it is published by one assignment, with the events and the watchers to
    /// refresh (a lookup of the keys watched). The table it replaces is released after the lock, and
    /// the kept values are made from the new one after it. Applies take turns (`applies`), so that no
    /// other apply changes the table between the build and the publication.
    /// - Parameter activating: Whether the set is the pending one that `activate()` applies: it skips the
    ///   lifecycle, which it went through when it arrived.
    func apply(_ set: ConfigSet, isLive: Bool, activating: Bool = false) {
        let applied = applies.withLock { count -> (Transition?, [WatcherRefresh])? in
            count += 1
            if isLive, !activating, options.updatePolicy == .onActivate, offlineSet == nil,
                let transition = holdBack(set)
            {
                return (transition, [])
            }
            var built = state.read { state, _ in state.pointee.table }
            let update = built.apply(set, isReceived: isLive)
            // Safe mode refuses a set set aside, as a payload skipped: nothing changes.
            var admission: LaunchGuard.Admission?
            if let launchGuard {
                admission = launchGuard.admit(built.index)
                guard admission != nil else { return nil }
            }
            let published = state.withLockAndStripes {
                state, stripes -> (Transition?, ConfigDirectorContext?, [WatcherRefresh], EvaluationIndex)? in
                var transition: Transition?
                if activating {
                    guard !state.isClosed else { return nil }
                } else if isLive {
                    guard let received = state.receiveConfigSet() else { return nil }
                    publishLocked(received, context: state.context, stripes)
                    transition = received
                    // The values of a connect supersede any that wait for `activate()`.
                    state.pendingSet = nil
                    valuesReceivedLocked(&state)
                } else {
                    guard !state.isClosed, state.source.yieldsToKeptValues else { return nil }
                }
                swap(&state.table, &built)
                state.source = isLive ? .live : .keptValues
                events.send(.configsUpdated(update))
                return (transition, state.context, state.watchers.refreshes(of: update), state.table.index)
            }
            // The table replaced (or the one built, when nothing was applied) is released here, after the lock.
            built = EvaluationTable()
            guard let (transition, context, refreshes, index) = published else { return nil }
            // Recorded before any reader outside the lock is told of the new values (their watchers, the connect
            // that waits), so that a launch that crashes on them counts against them.
            if let admission { launchGuard?.served(admission, index: index, context: context, isLive: isLive) }
            if isLive { keep(index, of: set, for: context) }
            return (transition, refreshes)
        }
        guard let (transition, refreshes) = applied else { return }
        // After the lock: a refresh runs the app's code (its type's parse and `==`).
        for refresh in refreshes { refresh.run() }
        if let transition { finish(transition) }
    }

    /// Under ``UpdatePolicy/onActivate``, takes a live set through the lifecycle (a connect that waited ends,
    /// `ready` is sent) and keeps it pending, merged into the values already pending, unless it ends an
    /// `initialize` or an `updateContext`. The kept values are written at once with the pending values applied, so
    /// that the next launch serves them. Called in turn with the applies.
    /// - Returns: The lifecycle's transition, or `nil` when the set applies at once.
    private func holdBack(_ set: ConfigSet) -> Transition? {
        let held = state.withLockAndStripes {
            state, stripes -> (Transition, EvaluationTable, ConfigSet, ConfigDirectorContext?)? in
            guard state.holdsLiveSetsBack, let received = state.receiveConfigSet() else { return nil }
            publishLocked(received, context: state.context, stripes)
            let pending = state.pendingSet.map { $0.superseded(by: set) } ?? set
            state.pendingSet = pending
            valuesReceivedLocked(&state)
            return (received, state.table, pending, state.context)
        }
        guard let (transition, served, pending, context) = held else { return nil }
        logger.debug("Values received wait for activate() (updatePolicy onActivate).")
        var table = served
        table.apply(pending)
        // Written now rather than at the next coalesced write: pending values are lost to no crash.
        keep(table.index, of: pending, for: context, now: true)
        return transition
    }

    /// Applies the values pending under ``UpdatePolicy/onActivate``, as a live set is applied.
    /// - Returns: Whether any value changed.
    func activate() -> Bool {
        guard let pending = state.withLock({ $0.pendingSet.take() }) else { return false }
        // A config changed or added takes a new revision; a config removed, nothing else: the count tells it.
        let shape = {
            self.state.read { state, _ in (state.pointee.table.lastRevision, state.pointee.table.index.slots.count) }
        }
        let before = shape()
        apply(pending, isLive: true, activating: true)
        return shape() != before
    }

    /// Whether values wait for `activate()`.
    var hasPendingValues: Bool { state.read { state, _ in state.pointee.pendingSet != nil } }

    /// Saves the served configs of `index` as the values kept for `context`, with `set`'s ids and timestamp, when
    /// the client keeps values (not offline values). Called in turn with the applies, so that saves keep their order.
    /// - Parameter now: Whether the save is written at once rather than at the store's next coalesced write.
    private func keep(
        _ index: EvaluationIndex, of set: ConfigSet, for context: ConfigDirectorContext?, now: Bool = false
    ) {
        guard offlineSet == nil, let keptValues, keptValues.isEnabled else { return }
        defer { if now { tasks.start { await keptValues.flush() } } }
        // The set is made from the index only when the store writes it (at most every few seconds), not at every apply.
        let (environmentID, projectID, timestamp) = (set.environmentID, set.projectID, set.timestamp)
        keptValues.save(
            ConfigSet(
                environmentID: environmentID, projectID: projectID, kind: .full, timestamp: timestamp,
                configs: index.configs),
            for: context
        )
    }

    /// Changes the local overrides of the table with `change`, in turn with the applies, and publishes the
    /// change as an apply does: a `configsUpdated` event naming the keys, then their watchers refresh after
    /// the lock.
    /// - Parameter change: Changes the overrides of a copy of the table; returns the keys changed, or `nil`
    ///   when nothing changed.
    /// - Returns: Whether anything changed (nothing does once the client is closed).
    @discardableResult
    func changeOverrides(_ change: (inout EvaluationTable) -> ConfigsUpdate?) -> Bool {
        let refreshes = applies.withLock { _ -> [WatcherRefresh]? in
            var built = state.read { state, _ in state.pointee.table }
            guard let update = change(&built) else { return nil }
            let refreshes = state.withLockAndStripes { state, _ -> [WatcherRefresh]? in
                guard !state.isClosed else { return nil }
                swap(&state.table, &built)
                events.send(.configsUpdated(update))
                return state.watchers.refreshes(of: update)
            }
            // The table replaced is released here, after the lock.
            built = EvaluationTable()
            return refreshes
        }
        guard let refreshes else { return false }
        for refresh in refreshes { refresh.run() }
        return true
    }

    /// The local overrides, by key.
    var overrides: [ExactKey: ConfigState] { state.read { state, _ in state.pointee.table.overrides } }

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
            return state.watchers.refresh(of: watcher)
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

    func pauseNetwork(_ cause: Lifecycle.PauseCause = .app) {
        transition { state in state.pause(cause) }
    }

    func resumeNetwork() async {
        await enqueueConnect(.current, reason: .networkResume)
    }

    func handle(_ event: AppLifecycleEvent) {
        switch event {
        case .didEnterBackground:
            launchGuard?.markHealthy(why: "the app went to the background")
            flushTelemetry()
            if options.connection.pausesWhileBackgrounded { pauseNetwork(.lifecycle) }
        case .willEnterForeground:
            if state.withLock(\.isPausedByLifecycle) {
                tasks.start { [weak self] in await self?.resumeNetwork() }
            } else {
                // A stream waiting out its backoff tries again now: the network may have come back with the app.
                transportCalls.withLock { $0.transport }?.networkMayHaveReturned()
            }
        }
    }

    /// Waits until the client went quiet: every connect it runs or queued (`initialize`, `updateContext`,
    /// `resumeNetwork`, a foreground resume) has ended, every task it started has ended, and every
    /// telemetry batch it queued was handled; what any of them starts while it waits is waited for too.
    ///
    /// A test that checks that something did not happen waits for it: after it, what the client had
    /// been asked to do is done. A connect that waits for its config state holds it until the config
    /// state arrives or the deadline passes; the telemetry timer and the coalesced writes of the kept
    /// values are not waited for (a manual clock or `closed()` reaches them).
    func wentQuiet() async {
        while true {
            await tasks.idle()
            await operations.idle()
            await telemetry?.sendsEnded()
            if tasks.isEmpty, operations.isIdle { return }
        }
    }

    /// How many connects wait for the connect before them to end (see ``SerialQueue/waitingCount``).
    var connectsWaitingForTheirTurn: Int { operations.waitingCount }

    /// Closes everything the client started: the connection, every stream and task, telemetry and
    /// the store. The tail (the last telemetry batch, bounded by its deadline, and the last write of
    /// the kept values) runs on; ``closed()`` waits for it.
    func close() {
        var watchers: [any KeyWatcher] = []
        let closed = transition { state in
            guard let transition = state.close() else { return nil }
            watchers = state.watchers.removeAll()
            return transition
        }
        guard closed != nil else { return }
        launchGuard?.close()
        for watcher in watchers { watcher.finish() }
        events.finish()
        evaluations.finish()
        finishHealth()
        dependencies.lifecycleObserver.stop()
        tasks.cancelAll()
        telemetryTimer.withLock { $0?.cancel() }
        // The caches are drained now: the tail may run after the core is released.
        let telemetry = telemetry
        let lastTelemetry = drainTelemetryCaches()
        let keptValues = keptValues
        let launchGuard = launchGuard
        let localOverrides = dependencies.localOverrides
        let tail = Task {
            async let telemetryTail: Void = telemetry?.close(last: lastTelemetry) ?? ()
            async let keptValuesTail: Void = keptValues?.close() ?? ()
            async let launchGuardTail: Void = launchGuard?.closeStore() ?? ()
            async let overridesTail: Void = localOverrides.written()
            _ = await (telemetryTail, keptValuesTail, launchGuardTail, overridesTail)
        }
        closing.withLock { $0 = tail }
    }

    /// Waits until the tail of `close()` has ended; returns at once when the client is not closed.
    func closed() async {
        await closing.withLock { $0 }?.value
    }
}
