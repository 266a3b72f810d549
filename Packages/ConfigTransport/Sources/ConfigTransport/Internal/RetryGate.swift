@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// When a stream in backoff tries again (PROTOCOL §4): when its delay passes, or at once (the caller jitters it
/// by up to ``ReconnectBackoff/networkReturnJitter``) when the network returns after an outage or the app returns to the foreground; and never
/// while the device has no network path, so that an outage spends no attempt.
final class RetryGate: Sendable {
    /// How a wait ended.
    enum Wake: Equatable {
        /// The delay passed.
        case elapsed
        /// The network returned, or the app came back to the foreground: the backoff starts over.
        case networkReturned
    }

    private struct State {
        var isSatisfied = true
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextID = 0
    }

    private let state = Locked(State())
    private let monitor: (any NetworkPathMonitor)?

    init(monitor: (any NetworkPathMonitor)?) {
        self.monitor = monitor
        monitor?.start { [weak self] isSatisfied in self?.pathChanged(isSatisfied: isSatisfied) }
    }

    /// Whether the device has a network path, as far as the monitor knows (`true` without one).
    var isSatisfied: Bool { state.withLock(\.isSatisfied) }

    /// Wakes every wait: the network may have returned (the app came back to the foreground).
    func networkMayHaveReturned() {
        let waiters = state.withLock { state in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Stops the monitor for good.
    func close() {
        monitor?.cancel()
        networkMayHaveReturned()
    }

    /// Waits `seconds` on `clock`, or less when the network returns first; then, while the device has no
    /// network path, until it has one.
    /// - Throws: `CancellationError` when the task is cancelled.
    func wait(seconds: Double, clock: any TransportClock) async throws -> Wake {
        var wake = try await withThrowingTaskGroup(of: Wake.self) { group in
            group.addTask {
                try await clock.sleep(seconds: seconds)
                return .elapsed
            }
            group.addTask {
                await self.nextReturn()
                return .networkReturned
            }
            defer { group.cancelAll() }
            return try await group.next() ?? .elapsed
        }
        while !isSatisfied {
            await nextReturn()
            try Task.checkCancellation()
            wake = .networkReturned
        }
        try Task.checkCancellation()
        return wake
    }

    private func pathChanged(isSatisfied: Bool) {
        let returned = state.withLock { state in
            defer { state.isSatisfied = isSatisfied }
            return isSatisfied && !state.isSatisfied
        }
        if returned { networkMayHaveReturned() }
    }

    /// Waits until the network returns, the app asks, or the task is cancelled.
    private func nextReturn() async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    guard !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
