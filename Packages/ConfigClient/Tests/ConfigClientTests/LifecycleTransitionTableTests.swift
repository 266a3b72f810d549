@_spi(Internal) import ConfigModel
import Testing

@testable @_spi(Internal) @_spi(Testing) import ConfigClient

/// Every (state, event) pair of the lifecycle, in one table: what each transition of
/// `ClientState+Lifecycle.swift` does from each state the client can be in. A pair whose row is
/// `.ignored` must return no transition and leave the state as it was.
@Suite("Lifecycle: every state and event", .timeLimit(.minutes(1)))
struct LifecycleTransitionTableTests {
    /// Where the client is, with the connect it waits on told apart by whether its caller still waits.
    enum State: String, CaseIterable, Sendable {
        case idle, connecting, connectingPastDeadline, live, stopped, pausedByApp, pausedByLifecycle, closed
    }

    /// What happens to the client.
    enum Event: String, CaseIterable, Sendable {
        case beginConnect, configSet, refusal, stoppedBy204, deadline, staleDeadline, pauseByApp, pauseByLifecycle
        case close
    }

    /// What a transition does: the state it leaves, the events published under the lock, the caller
    /// released and how, the transport call and the log line.
    struct Result: Sendable, Equatable {
        var state: State
        var events: [ClientEvent] = []
        var release: ConnectionAttempt.Outcome?
        var transportCall: Transition.TransportCall?
        var log: Transition.LogLine?
    }

    enum Expected: Sendable, Equatable {
        /// No transition, and the state stays as it was.
        case ignored
        case transition(Result)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let state: State
        let event: Event
        let expected: Expected

        var testDescription: String { "\(event.rawValue) while \(state.rawValue)" }
    }

    private static let user = ConfigDirectorContext(id: "user-1")
    private static let nextUser = ConfigDirectorContext(id: "user-2")
    private static let refusal = ConfigDirectorError.connectionFailed(message: "refused", statusCode: 401)
    private static let timedOut = Transition.LogLine.timedOut(.initialization, servesKeptValues: false)
    private static let failed = Transition.LogLine.failed(.initialization, refusal)

    private static func to(
        _ state: State, events: [ClientEvent] = [], release: ConnectionAttempt.Outcome? = nil,
        transport: Transition.TransportCall? = nil, log: Transition.LogLine? = nil
    ) -> Expected {
        .transition(Result(state: state, events: events, release: release, transportCall: transport, log: log))
    }

    /// The table. A 204 while live keeps the client live: it keeps serving the context's values, which
    /// are current as of the connection's end (as after a refusal while live), until the next connect.
    static let rows: [Row] = {
        let applied = ClientEvent.contextUpdated(user)
        let table: [(State, [Event: Expected])] = [
            (
                .idle,
                [
                    .beginConnect: to(.connecting), .configSet: .ignored, .refusal: .ignored, .stoppedBy204: .ignored,
                    .deadline: .ignored, .staleDeadline: .ignored,
                    .pauseByApp: to(.pausedByApp, transport: .disconnect),
                    .pauseByLifecycle: .ignored, .close: to(.closed, transport: .close),
                ]
            ),
            (
                .connecting,
                [
                    .beginConnect: to(.connecting),
                    .configSet: to(.live, events: [applied, .ready(.initialization)], release: .received),
                    .refusal: to(.stopped, release: .failed(refusal), log: failed),
                    .stoppedBy204: to(.stopped, events: [applied], release: .stopped, log: .stopped),
                    .deadline: to(.connectingPastDeadline, events: [applied], release: .timedOut, log: timedOut),
                    .staleDeadline: .ignored,
                    .pauseByApp: to(
                        .pausedByApp, events: [applied], release: .interrupted, transport: .disconnect, log: timedOut),
                    .pauseByLifecycle: to(
                        .pausedByLifecycle, events: [applied], release: .interrupted, transport: .disconnect,
                        log: timedOut),
                    .close: to(.closed, events: [applied], release: .interrupted, transport: .close, log: timedOut),
                ]
            ),
            (
                .connectingPastDeadline,
                [
                    .beginConnect: to(.connecting), .configSet: to(.live, events: [.ready(.initialization)]),
                    .refusal: to(.stopped, log: failed), .stoppedBy204: to(.stopped, log: .stopped),
                    .deadline: .ignored, .staleDeadline: .ignored,
                    .pauseByApp: to(.pausedByApp, transport: .disconnect),
                    .pauseByLifecycle: to(.pausedByLifecycle, transport: .disconnect),
                    .close: to(.closed, transport: .close),
                ]
            ),
            (
                .live,
                [
                    .beginConnect: to(.connecting), .configSet: to(.live), .refusal: to(.live, log: failed),
                    .stoppedBy204: to(.live, log: .stopped), .deadline: .ignored, .staleDeadline: .ignored,
                    .pauseByApp: to(.pausedByApp, transport: .disconnect),
                    .pauseByLifecycle: to(.pausedByLifecycle, transport: .disconnect),
                    .close: to(.closed, transport: .close),
                ]
            ),
            (
                .stopped,
                [
                    .beginConnect: to(.connecting), .configSet: .ignored, .refusal: .ignored, .stoppedBy204: .ignored,
                    .deadline: .ignored, .staleDeadline: .ignored,
                    .pauseByApp: to(.pausedByApp, transport: .disconnect),
                    .pauseByLifecycle: to(.pausedByLifecycle, transport: .disconnect),
                    .close: to(.closed, transport: .close),
                ]
            ),
            (
                .pausedByApp,
                [
                    .beginConnect: to(.connecting), .configSet: .ignored, .refusal: .ignored, .stoppedBy204: .ignored,
                    .deadline: .ignored, .staleDeadline: .ignored, .pauseByApp: .ignored, .pauseByLifecycle: .ignored,
                    .close: to(.closed, transport: .close),
                ]
            ),
            (
                .pausedByLifecycle,
                [
                    .beginConnect: to(.connecting), .configSet: .ignored, .refusal: .ignored, .stoppedBy204: .ignored,
                    .deadline: .ignored, .staleDeadline: .ignored, .pauseByApp: to(.pausedByApp),
                    .pauseByLifecycle: .ignored, .close: to(.closed, transport: .close),
                ]
            ),
            (
                .closed,
                [
                    .beginConnect: .ignored, .configSet: .ignored, .refusal: .ignored, .stoppedBy204: .ignored,
                    .deadline: .ignored, .staleDeadline: .ignored, .pauseByApp: .ignored, .pauseByLifecycle: .ignored,
                    .close: .ignored,
                ]
            ),
        ]
        return table.flatMap { state, results in
            results.map { event, expected in Row(state: state, event: event, expected: expected) }
        }
        .sorted { ($0.state.rawValue, $0.event.rawValue) < ($1.state.rawValue, $1.event.rawValue) }
    }()

    @Test("the table has one row for every (state, event) pair")
    func tableIsComplete() {
        let pairs = Self.rows.map { "\($0.state.rawValue) \($0.event.rawValue)" }
        #expect(Set(pairs).count == pairs.count)
        #expect(pairs.count == State.allCases.count * Event.allCases.count)
    }

    @Test("each (state, event) pair does what its row says", arguments: rows)
    func pair(_ row: Row) throws {
        var client = ClientState()
        let attempt = ConnectionAttempt(reason: .initialization)
        Self.bring(&client, to: row.state, attempt: attempt)
        let before = client.lifecycle

        let transition = Self.apply(row.event, to: &client, attempt: attempt)

        switch row.expected {
        case .ignored:
            #expect(transition == nil)
            #expect(client.lifecycle == before)
        case .transition(let expected):
            let made = try #require(transition)
            let result = Result(
                state: Self.state(of: client.lifecycle), events: made.events, release: made.release?.outcome,
                transportCall: made.transportCall, log: made.log)
            #expect(result == expected)
            if let released = made.release?.attempt { #expect(released === attempt) }
            #expect(client.isReady == (expected.state == .live))
        }
    }

    /// Brings a new client state to `state` through the transitions a client takes to get there.
    private static func bring(_ client: inout ClientState, to state: State, attempt: ConnectionAttempt) {
        func connect() { _ = client.beginConnect(attempt, context: user) }
        switch state {
        case .idle: break
        case .connecting: connect()
        case .connectingPastDeadline:
            connect()
            _ = client.deadlinePassed(for: attempt)
        case .live:
            connect()
            _ = client.receiveConfigSet()
        case .stopped:
            connect()
            _ = client.connectionFailed(refusal)
        case .pausedByApp:
            connect()
            _ = client.receiveConfigSet()
            _ = client.pause(.app)
        case .pausedByLifecycle:
            connect()
            _ = client.receiveConfigSet()
            _ = client.pause(.lifecycle)
        case .closed: _ = client.close()
        }
        #expect(Self.state(of: client.lifecycle) == state)
    }

    private static func apply(_ event: Event, to client: inout ClientState, attempt: ConnectionAttempt) -> Transition? {
        switch event {
        case .beginConnect: client.beginConnect(ConnectionAttempt(reason: .contextUpdate), context: nextUser)
        case .configSet: client.receiveConfigSet()
        case .refusal: client.connectionFailed(refusal)
        case .stoppedBy204: client.connectionStopped()
        case .deadline: client.deadlinePassed(for: attempt)
        case .staleDeadline: client.deadlinePassed(for: ConnectionAttempt(reason: .initialization))
        case .pauseByApp: client.pause(.app)
        case .pauseByLifecycle: client.pause(.lifecycle)
        case .close: client.close()
        }
    }

    private static func state(of lifecycle: Lifecycle) -> State {
        switch lifecycle {
        case .idle: .idle
        case .connecting(let connect): connect.isCallerWaiting ? .connecting : .connectingPastDeadline
        case .live: .live
        case .stopped: .stopped
        case .paused(.app): .pausedByApp
        case .paused(.lifecycle): .pausedByLifecycle
        case .closed: .closed
        }
    }
}
