@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport

/// Keeps every event a transport hands its owner, for a test to wait on, and can act when the
/// transport announces a reconnect: the handler runs in the transport's task before the backoff
/// starts, so whatever the action does happens before the reconnect.
final class TransportEventRecorder: Sendable {
    private let events = Protected<[TransportEvent]>([])
    private let reconnectAction = Protected<(@Sendable (_ attempt: Int) -> Void)?>(nil)

    /// The handler to give ``TransportFactory/makeTransport(handler:)``.
    var handler: @Sendable (TransportEvent) -> Void {
        { [self] event in record(event) }
    }

    private func record(_ event: TransportEvent) {
        events.withLock { $0.append(event) }
        if case .connectionState(.reconnecting(let attempt, _)) = event {
            reconnectAction.current?(attempt)
        }
    }

    /// Runs `action` in the transport's task each time it announces a reconnect, before it waits.
    func onReconnecting(_ action: @escaping @Sendable (_ attempt: Int) -> Void) {
        reconnectAction.withLock { $0 = action }
    }

    /// Every event so far, in order.
    var all: [TransportEvent] { events.current }

    /// The config sets so far, in order.
    var configSets: [ConfigSet] {
        all.compactMap { event in
            if case .configSet(let set) = event { return set }
            return nil
        }
    }

    /// The connection states so far, in order.
    var states: [ConnectionState] {
        all.compactMap { event in
            if case .connectionState(let state) = event { return state }
            return nil
        }
    }

    /// The `(attempt, delay)` of every reconnect announced so far.
    var reconnects: [(attempt: Int, delay: Double)] {
        states.compactMap { state in
            if case .reconnecting(let attempt, let delay) = state { return (attempt, delay) }
            return nil
        }
    }

    /// Waits until the config sets received satisfy `predicate`, at most `timeout` seconds.
    func waitForSets(timeout: Double = longestWait, until predicate: ([ConfigSet]) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { predicate(configSets) }
    }

    /// Waits until the events received satisfy `predicate`, at most `timeout` seconds.
    func wait(timeout: Double = longestWait, until predicate: ([TransportEvent]) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { predicate(all) }
    }
}
