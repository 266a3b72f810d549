public import Foundation

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The time source the transports wait on, injected so that tests observe backoff and polling without waiting.
@_spi(Internal) public protocol TransportClock: Sendable {
    /// The current time.
    /// - Returns: Now, as the clock tells it.
    func now() -> Date

    /// Seconds on a monotonic clock, for measuring durations (deadlines, silences, how long a connection stayed
    /// open): unlike ``now()``, it never jumps when the wall clock is set (an NTP step, a user changing the time,
    /// a device whose clock is set after boot). Its origin is arbitrary.
    /// - Returns: The seconds elapsed since the clock's origin.
    func uptime() -> Double

    /// The current time to within a second, for code that reads the time too often to afford `now()`.
    /// - Returns: Now, possibly truncated to the second; `now()` unless the clock has a cheaper read.
    func coarseNow() -> Date

    /// Suspends the calling task for a number of seconds.
    /// - Parameter seconds: How long to wait.
    /// - Throws: `CancellationError` when the task is cancelled before the time passes.
    func sleep(seconds: Double) async throws
}

extension TransportClock {
    /// The current time, as ``now()`` tells it.
    /// - Returns: `now()`.
    public func coarseNow() -> Date { now() }
}

/// The real clock: the system's time and `Task.sleep`.
@_spi(Internal) public struct SystemTransportClock: TransportClock {
    /// Creates the system clock.
    public init() {}

    /// The system's current time.
    /// - Returns: `Date()`.
    public func now() -> Date { Date() }

    /// Seconds since boot, time asleep included (a stream's silence goes on while a laptop sleeps):
    /// `CLOCK_BOOTTIME` on Linux, `CLOCK_MONOTONIC` on Apple platforms, which counts sleep there.
    /// - Returns: The seconds since boot.
    public func uptime() -> Double {
        var time = timespec()
        #if canImport(Glibc)
        _ = clock_gettime(CLOCK_BOOTTIME, &time)
        #else
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        #endif
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The system's current second, read with `time(nil)`: a few nanoseconds where `Date()` costs
    /// about ten times as much.
    /// - Returns: Now, truncated to the second.
    public func coarseNow() -> Date { Date(timeIntervalSince1970: Double(time(nil))) }

    /// Sleeps with `Task.sleep`.
    /// - Parameter seconds: How long to wait; negative values do not wait.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(seconds: Double) async throws {
        let clamped = min(max(seconds, 0), Double(UInt64.max / 1_000_000_000 / 2))
        try await Task.sleep(nanoseconds: UInt64(clamped * 1_000_000_000))
    }
}
