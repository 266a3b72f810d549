internal import Foundation

/// A value behind an `NSLock`; every access goes through ``withLock(_:)``.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
