internal import Foundation

/// A value guarded by a lock, for state shared across threads while the platform floor is iOS 15.
final class Locked<Value>: @unchecked Sendable {
    // Guarded by `lock`: every access to `value` goes through `withLock`.
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
