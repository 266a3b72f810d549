@_spi(Internal) import ConfigModel
import Testing

@testable @_spi(Internal) @_spi(Testing) import ConfigClient

/// The lifecycle's transitions alone, on a bare ``ClientState``.
@Suite("Lifecycle transitions", .timeLimit(.minutes(1)))
struct ClientStateLifecycleTests {
    private let user = ConfigDirectorContext(id: "user-1")
    private let refusedError = ConfigDirectorError.connectionFailed(message: "refused", statusCode: 401)

    private func connecting(_ reason: ConnectReason = .initialization) -> (ClientState, ConnectionAttempt) {
        var state = ClientState()
        let attempt = ConnectionAttempt(reason: reason)
        #expect(state.beginConnect(attempt, context: user) != nil)
        return (state, attempt)
    }

    @Test("a config set turns a connect live: contextUpdated then ready, and releases its caller")
    func configSetTurnsLive() throws {
        var (state, attempt) = connecting(.contextUpdate)
        #expect(!state.isReady)
        let transitionMade = state.receiveConfigSet()
        let transition = try #require(transitionMade)
        #expect(transition.events == [.contextUpdated(user), .ready(.contextUpdate)])
        #expect(transition.appliesContext)
        #expect(transition.release?.attempt === attempt)
        #expect(transition.release?.outcome == .received)
        #expect(state.lifecycle == .live(.contextUpdate))
        #expect(state.context == user)
        #expect(state.isReady)
        let againMade = state.receiveConfigSet()
        let again = try #require(againMade)
        #expect(again.events.isEmpty)
    }

    @Test("the deadline applies the context and releases the caller; the late set then publishes ready only")
    func deadline() throws {
        var (state, attempt) = connecting()
        let timedOutMade = state.deadlinePassed(for: attempt)
        let timedOut = try #require(timedOutMade)
        #expect(timedOut.events == [.contextUpdated(user)])
        #expect(timedOut.release?.outcome == .timedOut)
        #expect(timedOut.log == .timedOut(.initialization, servesKeptValues: false))
        #expect(state.deadlinePassed(for: attempt) == nil)
        let lateMade = state.receiveConfigSet()
        let late = try #require(lateMade)
        #expect(late.events == [.ready(.initialization)])
        #expect(late.release == nil)
    }

    @Test("a deadline of an older connect changes nothing")
    func staleDeadline() {
        var (state, _) = connecting()
        #expect(state.deadlinePassed(for: ConnectionAttempt(reason: .initialization)) == nil)
    }

    @Test("a refusal while connecting leaves the context, stops, ends initializing and logs the reason")
    func refused() throws {
        var (state, _) = connecting(.contextUpdate)
        state.isInitializing = true
        let failedMade = state.connectionFailed(refusedError)
        let failed = try #require(failedMade)
        #expect(failed.events.isEmpty)
        #expect(!failed.appliesContext)
        #expect(failed.release?.outcome == .failed(refusedError))
        #expect(failed.log == .failed(.contextUpdate, refusedError))
        #expect(state.lifecycle == .stopped)
        #expect(state.context == nil)
        #expect(!state.isInitializing)
        #expect(state.receiveConfigSet() == nil)
    }

    @Test("pausing: readiness clears; a waiting connect applies its context; the lifecycle pause yields to the app's")
    func pausing() throws {
        var (state, _) = connecting()
        let pausedMade = state.pause(.lifecycle)
        let paused = try #require(pausedMade)
        #expect(paused.transportCall == .disconnect)
        #expect(paused.release?.outcome == .interrupted)
        #expect(paused.events == [.contextUpdated(user)])
        #expect(state.isPausedByLifecycle)
        #expect(state.pause(.lifecycle) == nil)
        #expect(state.pause(.app) != nil)
        #expect(state.lifecycle == .paused(.app))
        #expect(!state.isPausedByLifecycle)
        #expect(state.pause(.app) == nil)
        #expect(state.receiveConfigSet() == nil)
    }

    @Test("the background does not pause a client that never connected; the app may")
    func pauseBeforeConnecting() {
        var state = ClientState()
        #expect(state.pause(.lifecycle) == nil)
        #expect(state.pause(.app)?.transportCall == .disconnect)
    }

    @Test(
        "close ends every state, releases a waiting caller with the warning and its context applied, and happens once")
    func closing() throws {
        var (state, _) = connecting()
        state.isInitializing = true
        let closedMade = state.close()
        let closed = try #require(closedMade)
        #expect(closed.transportCall == .close)
        #expect(closed.release?.outcome == .interrupted)
        #expect(closed.log == .timedOut(.initialization, servesKeptValues: false))
        #expect(closed.events == [.contextUpdated(user)] && closed.appliesContext)
        #expect(state.context == user)
        #expect(state.isClosed && !state.isReady && !state.isInitializing)
        #expect(state.close() == nil)
        #expect(state.beginConnect(ConnectionAttempt(reason: .networkResume), context: nil) == nil)
        #expect(state.pause(.app) == nil)
    }

    @Test("initialize marks initializing only until live values were served")
    func initializing() throws {
        var (state, _) = connecting()
        state.initializeCalled()
        #expect(state.isInitializing)
        let received = state.receiveConfigSet()
        #expect(received != nil)
        state.source = .live
        #expect(!state.isInitializing)
        state.initializeCalled()
        #expect(!state.isInitializing)
    }

    @Test("a 204 while connecting applies the context, releases the caller, stops and ends initializing")
    func stoppedByTheService() throws {
        var (state, _) = connecting()
        state.isInitializing = true
        let stoppedMade = state.connectionStopped()
        let stopped = try #require(stoppedMade)
        #expect(stopped.events == [.contextUpdated(user)])
        #expect(stopped.release?.outcome == .stopped)
        #expect(stopped.log == .stopped)
        #expect(state.lifecycle == .stopped)
        #expect(!state.isInitializing)
    }
}

extension Transition: Equatable {
    static func == (lhs: Transition, rhs: Transition) -> Bool {
        lhs.events == rhs.events && lhs.appliesContext == rhs.appliesContext
            && lhs.release?.attempt === rhs.release?.attempt && lhs.release?.outcome == rhs.release?.outcome
            && lhs.transportCall == rhs.transportCall && lhs.log == rhs.log
    }
}
