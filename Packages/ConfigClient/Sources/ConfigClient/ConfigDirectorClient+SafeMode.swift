extension ConfigDirectorClient {
    /// Whether crash-loop safe mode is on (``SafeModeOptions``): a set of values after which launches kept ending
    /// unhealthy was set aside (or sent again and refused) in this launch, and no other set from ConfigDirector has
    /// been served since. The values served meanwhile are the last that ran well (``valueSource`` is
    /// ``ConfigValueSource/keptValues``), else the bundled values, else the defaults in code.
    public var isInSafeMode: Bool { core.launchGuard?.isInSafeMode ?? false }

    /// Tells crash-loop safe mode that this launch runs well, before its stable period has passed: the values
    /// served are kept as the last that ran well. Call it when the app knows better than a timer, such as once its
    /// first screen appeared.
    ///
    /// ```swift
    /// .task { client.markLaunchHealthy() }
    /// ```
    public func markLaunchHealthy() {
        core.launchGuard?.markHealthy(why: "the app said so")
    }
}
