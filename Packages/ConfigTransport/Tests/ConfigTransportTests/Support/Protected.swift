import Foundation

/// A value guarded by a lock, for the fakes that tests share with the code under test.
final class Protected<Value>: @unchecked Sendable {
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

    var current: Value { withLock { $0 } }
}

/// Waits until `condition` holds, polling briefly; returns whether it did within two seconds of real time.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}
