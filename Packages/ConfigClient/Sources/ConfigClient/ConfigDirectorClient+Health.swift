extension ConfigDirectorClient {
    /// The state of the client's connection now: its mode and state, when values last arrived, the last
    /// failure and the next attempt.
    ///
    /// For a debug screen or a support log; it never changes what reads serve. Reading it takes the client's
    /// lock for a moment, as a read of ``isReady`` does.
    public var connectionHealth: ConnectionHealth { core.connectionHealth }

    /// The client's connection health: the current one first, then each change.
    ///
    /// Each access returns an independent stream that keeps the newest 64 unread changes; it yields
    /// ``ConnectionHealth/State/closed`` and finishes when the client closes (at once, after that one element, when
    /// the client is closed already).
    ///
    /// ```swift
    /// for await health in client.connectionHealthUpdates {
    ///     if case .waitingToRetry(let until) = health.state { print("Offline; next attempt at \(until)") }
    /// }
    /// ```
    public var connectionHealthUpdates: AsyncStream<ConnectionHealth> { core.subscribeToHealth() }
}
