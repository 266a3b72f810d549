extension ConfigDirectorClient {
    /// Applies the values that wait under ``UpdatePolicy/onActivate``: reads, `values(for:)` streams and observed
    /// configs change now, and a `configsUpdated` event names the keys. Does nothing under ``UpdatePolicy/live``,
    /// where nothing waits.
    /// - Returns: Whether any value changed.
    @discardableResult
    public func activate() -> Bool {
        core.activate()
    }

    /// Whether values received wait for ``activate()`` (under ``UpdatePolicy/onActivate``).
    public var hasPendingValues: Bool { core.hasPendingValues }
}
