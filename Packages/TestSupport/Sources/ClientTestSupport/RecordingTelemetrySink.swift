@_spi(Internal) @_spi(Testing) public import ConfigClient
@_spi(Internal) public import ConfigTransport
internal import TestSupport

/// A telemetry sink that keeps every batch it is sent.
@_spi(Testing) public final class RecordingTelemetrySink: TelemetrySink {
    private struct State {
        var batches: [TelemetryBatch] = []
        var keepsGoing = true
    }

    private let state = Protected(State())

    /// A sink that accepts every batch until ``refuseFromNowOn()``.
    public init() {}

    /// Keeps the batch; answers whether telemetry may go on.
    public func send(_ batch: TelemetryBatch) async -> Bool {
        state.withLock { state in
            state.batches.append(batch)
            return state.keepsGoing
        }
    }

    /// Every batch sent so far, in order.
    public var batches: [TelemetryBatch] { state.withLock(\.batches) }

    /// Makes every later send answer that telemetry must stop.
    public func refuseFromNowOn() {
        state.withLock { $0.keepsGoing = false }
    }
}
