@_spi(Internal) public import ConfigModel

extension ConfigDirectorClient {
    /// The client's lifecycle changes: `ready`, `configsUpdated` and `contextUpdated`.
    ///
    /// Each access returns an independent stream that keeps the newest 256 unread events; it finishes
    /// when the client closes.
    ///
    /// ```swift
    /// for await event in client.events {
    ///     if case let .configsUpdated(update) = event { print(update.keys) }
    /// }
    /// ```
    public var events: AsyncStream<ClientEvent> { core.events.subscribe() }

    /// Every evaluation: each `value(for:default:)` call and each value a `values(for:default:)`
    /// stream delivers.
    ///
    /// Each access returns an independent stream that keeps the newest 256 unread evaluations; it
    /// finishes when the client closes. Do not update view state from it: the re-render evaluates again.
    public var evaluations: AsyncStream<ConfigEvaluation> { core.subscribeToEvaluations() }
}
