extension ConfigDirectorClient {
    /// Every config the client holds, overrides included, with each one's value, type, value id, reason and
    /// source, and the context they were evaluated for: read at once, recording no evaluation and running no
    /// hook.
    /// - Returns: The snapshot.
    public func snapshot() -> ConfigSnapshot {
        core.snapshot()
    }
}
