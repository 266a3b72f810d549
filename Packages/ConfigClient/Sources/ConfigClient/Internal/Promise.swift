@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// A value that is set once and awaited by any number of tasks: the first ``resolve(_:)`` sets it,
/// later ones are ignored, and ``value()`` returns it, at once when it is already set.
final class Promise<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Locked(State())

    /// Sets the value and resumes every waiter, unless the value was already set.
    /// - Returns: Whether this call set it.
    @discardableResult
    func resolve(_ value: Value) -> Bool {
        let waiters: [CheckedContinuation<Value, Never>]? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// Waits until the value is set, and returns it.
    func value() async -> Value {
        await withCheckedContinuation { continuation in
            let set: Value? = state.withLock { state in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let set { continuation.resume(returning: set) }
        }
    }
}
