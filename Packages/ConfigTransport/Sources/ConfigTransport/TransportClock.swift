public import Foundation

/// The time source the transports wait on, injected so that tests observe backoff and polling without waiting.
public protocol TransportClock: Sendable {
    /// The current time.
    /// - Returns: Now, as the clock tells it.
    func now() -> Date

    /// Suspends the calling task for a number of seconds.
    /// - Parameter seconds: How long to wait.
    /// - Throws: `CancellationError` when the task is cancelled before the time passes.
    func sleep(seconds: Double) async throws
}

/// The real clock: the system's time and `Task.sleep`.
public struct SystemTransportClock: TransportClock {
    /// Creates the system clock.
    public init() {}

    /// The system's current time.
    /// - Returns: `Date()`.
    public func now() -> Date { Date() }

    /// Sleeps with `Task.sleep`.
    /// - Parameter seconds: How long to wait; negative values do not wait.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(seconds: Double) async throws {
        let clamped = min(max(seconds, 0), Double(UInt64.max / 1_000_000_000 / 2))
        try await Task.sleep(nanoseconds: UInt64(clamped * 1_000_000_000))
    }
}
