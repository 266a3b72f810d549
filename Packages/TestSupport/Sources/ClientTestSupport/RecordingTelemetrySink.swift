@_spi(Internal) @_spi(Testing) public import ConfigClient
@_spi(Internal) public import ConfigTransport
internal import TestSupport

/// A telemetry sink that keeps every batch it is sent, and hands each on to ``arrivals`` as it comes.
@_spi(Testing) public final class RecordingTelemetrySink: TelemetrySink {
    private struct State {
        var batches: [TelemetryBatch] = []
        var keepsGoing = true
        var closeCount = 0
    }

    private let state = Protected(State())
    private let arrived: AsyncStream<TelemetryBatch>.Continuation

    /// Every batch as it is sent, for a test that awaits them one by one; it finishes when the sink is closed.
    public let arrivals: AsyncStream<TelemetryBatch>

    /// A sink that accepts every batch until ``refuseFromNowOn()``.
    public init() {
        (arrivals, arrived) = AsyncStream.makeStream(of: TelemetryBatch.self)
    }

    /// Keeps the batch; answers whether telemetry may go on.
    public func send(_ batch: TelemetryBatch) async -> Bool {
        let keepsGoing = state.withLock { state in
            state.batches.append(batch)
            return state.keepsGoing
        }
        arrived.yield(batch)
        return keepsGoing
    }

    /// Counts the close and finishes ``arrivals``.
    public func close() {
        state.withLock { $0.closeCount += 1 }
        arrived.finish()
    }

    /// How many times the sink was closed.
    public var closes: Int { state.withLock(\.closeCount) }

    /// Every batch sent so far, in order.
    public var batches: [TelemetryBatch] { state.withLock(\.batches) }

    /// Makes every later send answer that telemetry must stop.
    public func refuseFromNowOn() {
        state.withLock { $0.keepsGoing = false }
    }
}
