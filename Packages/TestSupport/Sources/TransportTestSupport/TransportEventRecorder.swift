@_spi(Internal) public import ConfigModel
@_spi(Internal) public import ConfigTransport
internal import TestSupport

/// Keeps every event a transport hands its owner, for a test to wait on: the one transport event
/// recorder of the test suites. It can also act when the transport announces a reconnect: the handler
/// runs in the transport's task before the backoff starts, so whatever the action does happens before
/// the reconnect.
@_spi(Testing) public final class TransportEventRecorder: Sendable {
    private let recorded = Protected<[TransportEvent]>([])
    private let reconnectAction = Protected<(@Sendable (_ attempt: Int) -> Void)?>(nil)
    private let timeout: Double

    /// A recorder whose waits last at most `timeout` seconds each.
    public init(timeout: Double = 5) {
        self.timeout = timeout
    }

    /// The handler to give `TransportFactory.makeTransport(handler:)` or a transport's initializer.
    public var handler: @Sendable (TransportEvent) -> Void {
        { [self] event in record(event) }
    }

    private func record(_ event: TransportEvent) {
        recorded.withLock { $0.append(event) }
        if case .connectionState(.reconnecting(let attempt, _, _)) = event {
            reconnectAction.current?(attempt)
        }
    }

    /// Runs `action` in the transport's task each time it announces a reconnect, before it waits.
    public func onReconnecting(_ action: @escaping @Sendable (_ attempt: Int) -> Void) {
        reconnectAction.set(action)
    }

    /// Every event so far, in order.
    public var events: [TransportEvent] { recorded.current }

    /// The connection states so far, in order.
    public var states: [ConnectionState] {
        events.compactMap { event in
            if case .connectionState(let state) = event { return state }
            return nil
        }
    }

    /// The config sets so far, in order.
    public var configSets: [ConfigSet] {
        events.compactMap { event in
            if case .configSet(let set) = event { return set }
            return nil
        }
    }

    /// The `(attempt, delay)` of every reconnect announced so far.
    public var reconnects: [(attempt: Int, delay: Double)] {
        states.compactMap { state in
            if case .reconnecting(let attempt, let delay, _) = state { return (attempt, delay) }
            return nil
        }
    }

    /// Why each reconnect announced so far was needed, in order.
    public var failures: [TransportFailure] {
        states.compactMap { state in
            if case .reconnecting(_, _, let failure) = state { return failure }
            return nil
        }
    }

    /// The first outcome of a connect (`.open`, `.failed` or `.stopped`) among the states after the first
    /// `count`, or `nil` when there is none yet.
    public func outcome(after count: Int) -> ConnectionState? {
        states.dropFirst(count).first { state in
            if case .reconnecting = state { return false }
            return true
        }
    }

    /// Waits until the events received satisfy `predicate`, at most `timeout` seconds (the recorder's own
    /// timeout when `nil`).
    /// - Returns: Whether they did in time.
    public func wait(timeout: Double? = nil, until predicate: ([TransportEvent]) -> Bool) async -> Bool {
        await eventually(timeout: timeout ?? self.timeout) { predicate(events) }
    }

    /// Waits until the config sets received satisfy `predicate`, at most `timeout` seconds (the recorder's
    /// own timeout when `nil`).
    /// - Returns: Whether they did in time.
    public func waitForSets(timeout: Double? = nil, until predicate: ([ConfigSet]) -> Bool) async -> Bool {
        await eventually(timeout: timeout ?? self.timeout) { predicate(configSets) }
    }

    /// Waits until an outcome of a connect shows among the states after the first `count`.
    /// - Returns: The outcome, or `nil` when none came in time.
    public func awaitOutcome(after count: Int) async -> ConnectionState? {
        _ = await eventually(timeout: timeout) { outcome(after: count) != nil }
        return outcome(after: count)
    }
}
