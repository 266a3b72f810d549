@_spi(Internal) public import ConfigTransport

/// Where a client's telemetry batches go: ConfigDirector's endpoint in apps, a recorder in tests.
@_spi(Testing)
public protocol TelemetrySink: Sendable {
    /// Delivers one batch; batches are sent one at a time, in order.
    /// - Parameter batch: The aggregated evaluations of one context.
    /// - Returns: `false` when telemetry must stop for good (the service refused it); `true` otherwise,
    ///   whether or not the batch arrived.
    func send(_ batch: TelemetryBatch) async -> Bool

    /// Stops every send in flight and every later one, for good; called once the client's last
    /// batch was handled or its deadline passed.
    func close()
}

extension TelemetrySink {
    /// Does nothing: a sink with nothing in flight has nothing to stop.
    public func close() {}
}
