@_spi(Internal) @_spi(Locking) internal import ConfigModel
@_spi(Internal) internal import ConfigStore
@_spi(Internal) internal import ConfigTransport
internal import Foundation

/// Crash-loop safe mode of one client (``SafeModeOptions``): it judges the launches before this one from the
/// ``LaunchRecord``, refuses the sets set aside, puts each new set it serves on trial, and proves the launch
/// healthy.
///
/// Seams: the store (files in the options' folder) and the clock of the stable period are given; the tracer and
/// the liveness of another process are asked of the system. Its lock guards its state; the record is written
/// under it, so that writes keep their order, and it never takes the client's lock.
final class LaunchGuard: Sendable {
    /// The configs a client serves, fingerprinted.
    struct Admission {
        let fingerprint: ConfigFingerprint
        /// The hash of each config (``ConfigFingerprint/hash(key:state:)``).
        let hashes: [ExactKey: UInt64]

        /// Hashes every config of `configs` and fingerprints them.
        init(_ configs: some Sequence<(key: ExactKey, state: ConfigState)>, count: Int) {
            var hashes: [ExactKey: UInt64] = [:]
            hashes.reserveCapacity(count)
            for (key, state) in configs { hashes[key] = ConfigFingerprint.hash(key: key, state: state) }
            self.hashes = hashes
            fingerprint = ConfigFingerprint(hashes: hashes.values)
        }
    }

    private struct State {
        var record = LaunchRecord()
        var hasStarted = false
        /// The per-config hashes of the last set that ran well, when its values were read or proven here.
        var lastGoodHashes: [ExactKey: UInt64]?
        /// The set on trial in this launch: its configs, their hashes and the context they were evaluated for.
        var onTrial: (index: EvaluationIndex, hashes: [ExactKey: UInt64], context: ConfigDirectorContext?)?
        var isInSafeMode = false
        /// The sets set aside whose refusal was logged.
        var refusalsLogged: Set<ConfigFingerprint> = []
        var hasLoggedWriteFailure = false
        var stableTimer: Task<Void, Never>?
        var isClosed = false
    }

    /// This process's launch, told apart from an earlier process of the same id.
    static let launchID = UUID().uuidString

    private let options: SafeModeOptions
    private let store: LaunchRecordStore
    private let clock: any TransportClock
    private let logger: any ConfigDirectorLogger
    private let state = Locked(State())

    /// Creates the guard of a client; nothing is read before ``startLaunch()``.
    init(
        clientSDKKey: String,
        options: SafeModeOptions,
        caching: CachingOptions,
        clock: any TransportClock,
        logger: any ConfigDirectorLogger
    ) {
        var options = options
        if !(options.stablePeriod.isFinite && options.stablePeriod > 0) {
            logger.warn(
                "SafeModeOptions.stablePeriod \(options.stablePeriod) is not a positive number of seconds; "
                    + "\(SafeModeOptions.defaultStablePeriod) s is used.")
            options.stablePeriod = SafeModeOptions.defaultStablePeriod
        }
        if options.unhealthyLaunchLimit < 1 {
            logger.warn(
                "SafeModeOptions.unhealthyLaunchLimit \(options.unhealthyLaunchLimit) is below 1; "
                    + "\(SafeModeOptions.defaultUnhealthyLaunchLimit) is used.")
            options.unhealthyLaunchLimit = SafeModeOptions.defaultUnhealthyLaunchLimit
        }
        self.options = options
        store = LaunchRecordStore(
            clientSDKKey: clientSDKKey, directory: options.directory, caching: caching, logger: logger)
        self.clock = clock
        self.logger = logger
        ProcessExit.register(self)
    }

    /// Whether a set was set aside or refused in this launch, and no set from the service has been served since.
    var isInSafeMode: Bool { state.withLock(\.isInSafeMode) }

    // MARK: The launch

    /// Judges the launches before this one, once: a set left on trial by a launch that ended counts a strike
    /// against it, and sets it aside at the limit. Reads the hashes of the last values that ran well for
    /// `context`, so that a new set's trial can name what changed.
    func startLaunch(context: ConfigDirectorContext?) async {
        let verdict = state.withLock { state -> LaunchRecord.Verdict? in
            guard !state.hasStarted, !state.isClosed else { return nil }
            state.hasStarted = true
            let (record, problem) = store.read()
            state.record = record
            if let problem { logger.warn("Safe mode: \(problem); it counts as a healthy past, and is rewritten.") }
            let verdict = state.record.startLaunch(limit: options.unhealthyLaunchLimit) { trial in
                trial.launchID == Self.launchID || Self.isRunning(trial.processID)
            }
            if case .setAside = verdict { state.isInSafeMode = true }
            if verdict != .noTrial, verdict != .stillRunning { writeLocked(&state) }
            return verdict
        }
        guard let verdict else { return }
        log(verdict)
        // In safe mode, `safeSet(for:)` reads them (and notes their hashes) next.
        if state.withLock({ $0.record.lastGood != nil && !$0.isInSafeMode }) {
            _ = await lastGood(for: context)
        }
    }

    /// The last values that ran well for `context`, when the launch is in safe mode and they are the ones the
    /// record proved: what the client serves in place of the values kept on the device.
    func safeSet(for context: ConfigDirectorContext?) async -> ConfigSet? {
        guard isInSafeMode else { return nil }
        let set = await lastGood(for: context)
        if set == nil {
            logger.warn(
                "Safe mode: no values that ran well are kept for this context; the client serves the values kept on "
                    + "the device unless they are a set set aside, else the bundled values, else the defaults in "
                    + "code, until ConfigDirector sends a set that is not set aside.")
        }
        return set
    }

    /// The last values that ran well kept for `context`, when their fingerprint is the record's; notes their
    /// hashes.
    private func lastGood(for context: ConfigDirectorContext?) async -> ConfigSet? {
        guard let set = await store.lastGood(for: context) else { return nil }
        let fingerprinted = Admission(set.configs.lazy.map { ($0.key, $0.value) }, count: set.configs.count)
        return state.withLock { state in
            guard fingerprinted.fingerprint == state.record.lastGood else { return nil }
            state.lastGoodHashes = fingerprinted.hashes
            return set
        }
    }

    // MARK: Sets served

    /// Fingerprints the configs about to be served; `nil` when they are a set set aside, which is refused (and
    /// logged once).
    func admit(_ index: EvaluationIndex) -> Admission? {
        // Fingerprinted without the local overrides: the set is the one served.
        let admission = Admission(index.served.lazy.map { ($0.key, $0.config) }, count: index.servedCount)
        let fingerprint = admission.fingerprint
        let logsRefusal = state.withLock { state -> Bool? in
            guard state.record.isSetAside(fingerprint) else { return nil }
            state.isInSafeMode = true
            return state.refusalsLogged.insert(fingerprint).inserted
        }
        guard let logsRefusal else { return admission }
        if logsRefusal {
            logger.error(
                "Safe mode: a set of values identical to one set aside after launches that ended unhealthy "
                    + "(\(fingerprint)) was refused; the client keeps serving what it serves. This is logged once."
            )
        }
        return nil
    }

    /// Notes the configs of `admission` served: a new set goes on trial (written before the app reads it) until
    /// the stable period passes; the last set that ran well ends any trial. A set from the service ends safe mode.
    func served(
        _ admission: Admission, index: EvaluationIndex, context: ConfigDirectorContext?, isLive: Bool
    ) {
        let started = state.withLock { state -> Bool in
            guard state.hasStarted, !state.isClosed else { return false }
            if isLive { state.isInSafeMode = false }
            // The set on trial again (a delta that changed nothing): its trial and stable period go on.
            guard admission.fingerprint != state.record.trial?.fingerprint else { return false }
            // Only a new set goes on trial: the last that ran well needs no list of changes nor a tracer's check.
            let isNew = admission.fingerprint != state.record.lastGood
            let changed =
                isNew ? Self.changedKeys(admission.hashes, from: state.lastGoodHashes) : (listed: [], count: 0)
            let trial = LaunchRecord.Trial(
                fingerprint: admission.fingerprint,
                changedKeys: changed.listed.names,
                changedKeyCount: changed.count,
                processID: getpid(),
                launchID: Self.launchID,
                isTraced: isNew && options.ignoresLaunchesUnderDebugger && ProcessTracing.isTraced()
            )
            let before = state.record
            let onTrial = state.record.serve(trial)
            state.onTrial = onTrial ? (index, admission.hashes, context) : nil
            state.stableTimer?.cancel()
            state.stableTimer = nil
            if state.record != before { writeLocked(&state) }
            return onTrial
        }
        guard started else { return }
        logger.debug(
            "Safe mode: a new set of values (\(admission.fingerprint)) is on trial until the app has run "
                + "\(options.stablePeriod) s with it.")
        let fingerprint = admission.fingerprint
        let timer = Task { [weak self, clock, options] in
            guard (try? await clock.sleep(seconds: options.stablePeriod)) != nil, !Task.isCancelled else { return }
            self?.proveHealthy(onTrial: fingerprint, why: "it ran \(options.stablePeriod) s")
        }
        state.withLock { state in
            if state.record.trial?.fingerprint == fingerprint, !state.isClosed {
                state.stableTimer = timer
            } else {
                timer.cancel()
            }
        }
    }

    /// The keys whose configs differ between `hashes` and `lastGood` (every key of `hashes` when it is unknown):
    /// how many, and the first ``LaunchRecord/changedKeysListed`` in the order of their bytes, picked without
    /// sorting them all.
    private static func changedKeys(
        _ hashes: [ExactKey: UInt64], from lastGood: [ExactKey: UInt64]?
    ) -> (listed: [ExactKey], count: Int) {
        var listed: [ExactKey] = []
        var count = 0
        func note(_ key: ExactKey) {
            count += 1
            guard listed.count < LaunchRecord.changedKeysListed || key < listed[listed.count - 1] else { return }
            listed.insert(key, at: listed.firstIndex { key < $0 } ?? listed.count)
            if listed.count > LaunchRecord.changedKeysListed { listed.removeLast() }
        }
        for (key, hash) in hashes where lastGood?[key] != hash { note(key) }
        for key in lastGood?.keys ?? [:].keys where hashes[key] == nil { note(key) }
        return (listed, count)
    }

    // MARK: Healthy

    /// Proves the launch healthy: the set on trial ran well, and its values are kept as the last that did.
    /// - Parameter why: What proved it, for the log.
    func markHealthy(why: String) {
        proveHealthy(onTrial: nil, why: why)
    }

    /// Proves the launch healthy, if `fingerprint` (any set when `nil`) is still on trial.
    private func proveHealthy(onTrial fingerprint: ConfigFingerprint?, why: String) {
        state.withLock { state in
            guard state.hasStarted, !state.isClosed else { return }
            if let fingerprint, state.record.trial?.fingerprint != fingerprint { return }
            let before = state.record
            if let proven = state.record.proveHealthy(), let onTrial = state.onTrial {
                state.lastGoodHashes = onTrial.hashes
                let index = onTrial.index
                store.keepLastGood(ConfigSet(kind: .full, configs: index.configs), for: onTrial.context)
                logger.debug("Safe mode: the launch is healthy (\(why)): \(proven) ran well.")
            }
            state.onTrial = nil
            state.stableTimer?.cancel()
            state.stableTimer = nil
            if state.record != before { writeLocked(&state) }
        }
    }

    /// Proves the launch healthy (a client closed ran well) and stops; ``closeStore()`` then ends the writes.
    func close() {
        markHealthy(why: "the client was closed")
        state.withLock { state in
            state.isClosed = true
            state.stableTimer?.cancel()
            state.stableTimer = nil
        }
        ProcessExit.unregister(self)
    }

    /// Writes the last values that ran well if their write is pending, and stops writing.
    func closeStore() async {
        await store.close()
    }

    // MARK: Support

    /// Writes the record; a failure is logged once, and safe mode goes on with what it knows.
    private func writeLocked(_ state: inout State) {
        do {
            try store.write(state.record)
        } catch {
            guard !state.hasLoggedWriteFailure else { return }
            state.hasLoggedWriteFailure = true
            logger.warn(
                "Safe mode: the launch record could not be written (\(error.localizedDescription)); safe mode goes "
                    + "on without it. This is logged once.")
        }
    }

    private func log(_ verdict: LaunchRecord.Verdict) {
        let period = options.stablePeriod
        switch verdict {
        case .noTrial:
            logger.debug("Safe mode: the last launch ended healthy.")
        case .stillRunning:
            logger.debug("Safe mode: the set on trial is served by a launch that still runs; nothing is counted.")
        case .traced:
            logger.info("Safe mode: the last launch ran under a debugger and ended unproven; it is not counted.")
        case .strike(let trial, let count):
            logger.warn(
                "Safe mode: the last launch ended within \(period) s of serving a new set of values "
                    + "(\(trial.fingerprint); \(Self.describe(trial))): \(count) of "
                    + "\(options.unhealthyLaunchLimit) unhealthy launches in a row before that set is set aside.")
        case .setAside(let trial, let count):
            logger.error(
                "Safe mode is on: the last \(count) launches ended within \(period) s of serving a new set of "
                    + "values (\(trial.fingerprint)), so that set is set aside and not served again. "
                    + "\(Self.describe(trial)). The client serves the last values that ran well, else the bundled "
                    + "values, else the defaults in code, until ConfigDirector sends a different set.")
        }
    }

    /// The keys a trial changed, for a log line.
    private static func describe(_ trial: LaunchRecord.Trial) -> String {
        guard trial.changedKeyCount > 0 else { return "no key changed" }
        let listed = trial.changedKeys.map { "'\($0)'" }.joined(separator: ", ")
        let more = trial.changedKeyCount - trial.changedKeys.count
        return "keys changed: " + listed + (more > 0 ? " and \(more) more" : "")
    }

    /// Whether the process `processID` still runs.
    private static func isRunning(_ processID: Int32) -> Bool {
        processID > 0 && (kill(processID, 0) == 0 || errno == EPERM)
    }
}
