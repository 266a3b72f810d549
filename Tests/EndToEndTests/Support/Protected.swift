import Foundation

/// A value that several tasks and threads share, guarded by a lock.
final class Protected<Value>: @unchecked Sendable {
    // `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }

    /// A copy of the value.
    var current: Value { withLock { $0 } }
}
