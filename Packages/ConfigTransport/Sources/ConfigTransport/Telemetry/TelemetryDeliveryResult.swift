@_spi(Internal) public import ConfigModel

/// What became of one telemetry batch.
@_spi(Internal) public enum TelemetryDeliveryResult: Sendable, Hashable {
    /// The service accepted the batch (2xx).
    case delivered
    /// The batch was dropped and will not be retried: a network error, a timeout, a status other than 2xx
    /// and fatal 4xx, or the reporter was closed.
    case dropped
    /// The service refused telemetry for good (4xx but 429): this batch and every later one are not sent.
    case stopped(ConfigDirectorError)
}
