public import Foundation

/// Crash-loop safe mode: a set of values after which the app keeps crashing at launch is set aside, so that a
/// config that crashes the app cannot keep it from ever running long enough to get the fix.
///
/// The client records, in files of its own, each set of values it serves that is not the last one that ran well.
/// A launch is healthy once the app has run ``stablePeriod`` seconds after that set was served, or when the app
/// calls ``ConfigDirectorClient/markLaunchHealthy()``, goes to the background, closes the client or exits
/// normally. A launch that ends otherwise (a crash, a kill) counts against the set it served; after
/// ``unhealthyLaunchLimit`` such launches in a row, the set is set aside: the next launches serve the last values
/// that ran well (kept for that purpose while caching is on, and only for the same context), else the bundled
/// values, else the defaults in code, and log one error naming the keys that changed.
/// ``ConfigDirectorClient/isInSafeMode`` is `true` meanwhile. The same set sent again is refused; a different one
/// (the fix) is served, and goes on trial in turn.
///
/// Launches under a debugger are not counted (``ignoresLaunchesUnderDebugger``). Offline mode and test clients
/// never record anything.
public struct SafeModeOptions: Sendable {
    /// Whether safe mode is on; `true` by default.
    public var isEnabled: Bool
    /// How long the app must run after a new set was served for the launch to count as healthy, in seconds;
    /// 10 by default.
    public var stablePeriod: TimeInterval
    /// How many unhealthy launches in a row set a set aside; 2 by default.
    public var unhealthyLaunchLimit: Int
    /// Whether launches under a debugger are left uncounted; `true` by default, so that stopping the app in
    /// Xcode is never taken for a crash.
    public var ignoresLaunchesUnderDebugger: Bool
    /// The folder of safe mode's files; the SDK's folder in Application Support (Caches on tvOS; on Linux,
    /// `$XDG_DATA_HOME` or `~/.local/share`) by default.
    public var directory: URL?

    /// The default stable period, in seconds.
    public static let defaultStablePeriod: TimeInterval = 10
    /// The default number of unhealthy launches in a row that set a set aside.
    public static let defaultUnhealthyLaunchLimit = 2

    /// Safe mode turned off: nothing is recorded, nothing is set aside.
    public static let disabled = SafeModeOptions(isEnabled: false)

    /// Creates safe mode options.
    /// - Parameters:
    ///   - isEnabled: Whether safe mode is on.
    ///   - stablePeriod: How long a launch must run after a new set was served, in seconds; a value that is not
    ///     a positive number is logged and the default is used.
    ///   - unhealthyLaunchLimit: How many unhealthy launches in a row set a set aside; a value below 1 is logged
    ///     and the default is used.
    ///   - ignoresLaunchesUnderDebugger: Whether launches under a debugger are left uncounted.
    ///   - directory: The folder of safe mode's files; the SDK's folder by default.
    public init(
        isEnabled: Bool = true,
        stablePeriod: TimeInterval = defaultStablePeriod,
        unhealthyLaunchLimit: Int = defaultUnhealthyLaunchLimit,
        ignoresLaunchesUnderDebugger: Bool = true,
        directory: URL? = nil
    ) {
        self.isEnabled = isEnabled
        self.stablePeriod = stablePeriod
        self.unhealthyLaunchLimit = unhealthyLaunchLimit
        self.ignoresLaunchesUnderDebugger = ignoresLaunchesUnderDebugger
        self.directory = directory
    }
}
