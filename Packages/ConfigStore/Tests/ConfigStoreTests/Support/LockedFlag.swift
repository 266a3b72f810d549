import Foundation

/// A flag set from the provider's hook and read by the test.
final class LockedFlag: @unchecked Sendable {
    // Guarded by `lock`: every access to `flag` takes it.
    private var flag = false
    private let lock = NSLock()

    var value: Bool {
        lock.lock()
        defer { lock.unlock() }
        return flag
    }

    func set(_ newValue: Bool) {
        lock.lock()
        defer { lock.unlock() }
        flag = newValue
    }
}
