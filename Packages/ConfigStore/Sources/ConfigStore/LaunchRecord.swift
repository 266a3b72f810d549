@_spi(Internal) public import ConfigModel

/// What a client remembers of its launches, for crash-loop safe mode: the set of values on trial (served, not yet
/// proven), the consecutive launches that ended on one set's trial, the sets set aside, and the last set that ran
/// well. Its rules, each a method; ``LaunchRecordStore`` keeps it on the device.
///
/// A set is on trial from the moment it is served (when it is not the last set that ran well) until the launch
/// proves healthy. A launch that ended while a set was on trial, untraced and in a process that is gone, ended
/// unhealthy: it counts a strike against that set, and the limit of strikes in a row sets the set aside. A healthy
/// launch ends the trial and the strikes, and its set becomes the last that ran well.
@_spi(Internal) public struct LaunchRecord: Sendable, Hashable, Codable {
    /// A set served and not yet proven.
    public struct Trial: Sendable, Hashable, Codable {
        /// The set's fingerprint.
        public var fingerprint: ConfigFingerprint
        /// Up to ``changedKeysListed`` keys whose values differ from the last set that ran well (all its keys
        /// when there is none), for the log line that sets it aside.
        public var changedKeys: [String]
        /// How many keys differ in all.
        public var changedKeyCount: Int
        /// The launch that serves it: its process's id, and a random id of the process (a process id is reused).
        public var processID: Int32
        public var launchID: String
        /// Whether that process runs under a debugger: its end never counts.
        public var isTraced: Bool

        /// Creates a trial.
        public init(
            fingerprint: ConfigFingerprint, changedKeys: [String], changedKeyCount: Int, processID: Int32,
            launchID: String, isTraced: Bool
        ) {
            self.fingerprint = fingerprint
            self.changedKeys = changedKeys
            self.changedKeyCount = changedKeyCount
            self.processID = processID
            self.launchID = launchID
            self.isTraced = isTraced
        }
    }

    /// Launches in a row that ended while one set was on trial.
    public struct Strikes: Sendable, Hashable, Codable {
        /// The set's fingerprint.
        public var fingerprint: ConfigFingerprint
        /// How many launches.
        public var count: Int
    }

    /// How many keys a trial lists.
    public static let changedKeysListed = 20
    /// How many sets set aside are remembered; the oldest is forgotten past it.
    public static let setAsideLimit = 16

    /// The set on trial, if any.
    public var trial: Trial?
    /// The strikes in a row against one set.
    public var strikes: Strikes?
    /// The sets set aside, the newest last.
    public var setAside: [ConfigFingerprint] = []
    /// The last set that ran well.
    public var lastGood: ConfigFingerprint?

    /// A record of no launch: what a missing or unreadable record counts as, a healthy past.
    public init() {}

    /// What a launch found of the launches before it.
    public enum Verdict: Sendable, Hashable {
        /// No set was on trial.
        case noTrial
        /// A set was on trial in a process that still runs (another client of this process, or another process
        /// of the app): nothing ended.
        case stillRunning
        /// The launch that ended on a trial ran under a debugger: it does not count.
        case traced
        /// The launch ended unhealthy: a strike against its set, `count` in a row.
        case strike(Trial, count: Int)
        /// The launch ended unhealthy, and its set reached the limit of strikes: it is set aside.
        case setAside(Trial, count: Int)
    }

    /// Judges the launch that left a set on trial, at the start of a new launch, and ends that trial unless its
    /// process still runs.
    /// - Parameters:
    ///   - limit: The strikes in a row that set a set aside.
    ///   - isRunning: Whether the launch of a trial still runs: this process's, or a process still alive.
    /// - Returns: The verdict.
    public mutating func startLaunch(limit: Int, isRunning: (Trial) -> Bool) -> Verdict {
        guard let trial else { return .noTrial }
        guard !isRunning(trial) else { return .stillRunning }
        self.trial = nil
        guard !trial.isTraced else { return .traced }
        let count = strikes?.fingerprint == trial.fingerprint ? (strikes?.count ?? 0) + 1 : 1
        guard count >= limit else {
            strikes = Strikes(fingerprint: trial.fingerprint, count: count)
            return .strike(trial, count: count)
        }
        strikes = nil
        setAside.removeAll { $0 == trial.fingerprint }
        setAside.append(trial.fingerprint)
        if setAside.count > Self.setAsideLimit { setAside.removeFirst(setAside.count - Self.setAsideLimit) }
        return .setAside(trial, count: count)
    }

    /// Whether a set was set aside: it is not served again.
    public func isSetAside(_ fingerprint: ConfigFingerprint) -> Bool {
        setAside.contains(fingerprint)
    }

    /// Notes the set now served: it goes on trial unless it is the last that ran well (then no set is on trial).
    /// - Parameter trial: The trial of the set served.
    /// - Returns: Whether the set went on trial.
    @discardableResult
    public mutating func serve(_ trial: Trial) -> Bool {
        guard trial.fingerprint != lastGood else {
            self.trial = nil
            return false
        }
        self.trial = trial
        return true
    }

    /// Notes that the launch proved healthy: the unhealthy launches are no longer in a row, and the set on trial,
    /// if any, ran well.
    /// - Returns: The set proven, or `nil` when none was on trial.
    @discardableResult
    public mutating func proveHealthy() -> ConfigFingerprint? {
        strikes = nil
        guard let trial else { return nil }
        lastGood = trial.fingerprint
        self.trial = nil
        return trial.fingerprint
    }
}
