public import Foundation

/// A value that several tasks and threads share, guarded by a lock: the one lock box of the test suites
/// (fakes that tests share with the code under test, flags set from a callback, recorded events).
///
/// Its members are inlinable, so that a benchmark's baseline that takes it pays what an `NSLock` costs
/// and no cross-module call of an unspecialized generic.
public final class Protected<Value>: @unchecked Sendable {
    // `value` is guarded by `lock`: every access goes through `withLock`.
    @usableFromInline var value: Value
    @usableFromInline let lock = NSLock()

    /// Boxes `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock. Never block in `body` (a read, a send, a wait): a
    /// test task that reads the value meanwhile would hold a thread of the cooperative pool for as long.
    /// - Returns: What `body` returns.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        // NSLock.withLock needs macOS 14, above the packages' platform floor.
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    @inlinable
    public var current: Value { withLock { $0 } }

    /// Replaces the value; `newValue` is computed before the lock is taken.
    @inlinable
    public func set(_ newValue: Value) {
        withLock { $0 = newValue }
    }
}
