@_spi(Internal) internal import ConfigModel

/// The lifecycle's transitions: each changes the state under the core's lock and returns what to do
/// with the lock held (events) and after it (releasing a caller, the transport, logging).
extension ClientState {
    /// Marks the client initializing when `initialize` is called on a client that never received
    /// config state, before its turn comes.
    mutating func initializeCalled() {
        if !isClosed, source != .live { isInitializing = true }
    }

    /// A connect begins (`initialize`, `updateContext`, `resumeNetwork`): readiness clears at once and
    /// the connect waits for its config set. `nil` when the client is closed.
    mutating func beginConnect(_ attempt: ConnectionAttempt, context: ConfigDirectorContext?) -> Transition? {
        guard !isClosed else { return nil }
        lifecycle = .connecting(Connect(attempt: attempt, context: context))
        refusal = nil
        connection.phase = .connecting
        return Transition()
    }

    /// Whether `attempt` is the connect the client waits on.
    func isConnecting(_ attempt: ConnectionAttempt) -> Bool {
        if case .connecting(let connect) = lifecycle { return connect.attempt === attempt }
        return false
    }

    /// A config set arrived, before the table applies it. A connect that waited for it applies its
    /// context (`contextUpdated`) unless its deadline already did, and turns the client ready
    /// (`ready`); the caller then publishes `configsUpdated`. `nil` when the set must be dropped: the
    /// client is paused, stopped, closed, or never connected.
    mutating func receiveConfigSet() -> Transition? {
        switch lifecycle {
        case .connecting(let connect):
            var transition = Transition()
            if connect.isCallerWaiting {
                applyContext(of: connect, to: &transition)
                transition.release = (connect.attempt, .received)
            }
            lifecycle = .live(connect.attempt.reason)
            isInitializing = false
            transition.events.append(.ready(connect.attempt.reason))
            return transition
        case .live:
            return Transition()
        case .idle, .stopped, .paused, .closed:
            return nil
        }
    }

    /// The service refused the connection for good. A connect that waited leaves the context as it
    /// was and stops; a live client keeps serving what it has.
    mutating func connectionFailed(_ error: ConfigDirectorError) -> Transition? {
        switch lifecycle {
        case .connecting(let connect):
            var transition = Transition(log: .failed(connect.attempt.reason, error))
            if connect.isCallerWaiting { transition.release = (connect.attempt, .failed(error)) }
            lifecycle = .stopped
            isInitializing = false
            refusal = error
            return transition
        case .live(let reason):
            isInitializing = false
            return Transition(log: .failed(reason, error))
        case .idle, .stopped, .paused, .closed:
            return nil
        }
    }

    /// The service ended the connection without an error (204). A connect that waited applies its
    /// context, as a timeout does, and stops; nothing retries, so the client is no longer initializing. A
    /// live client stays live on the values it has (PROTOCOL §4: no reconnect, no error), until the next
    /// connect.
    mutating func connectionStopped() -> Transition? {
        switch lifecycle {
        case .connecting(let connect):
            var transition = Transition(log: .stopped)
            if connect.isCallerWaiting {
                applyContext(of: connect, to: &transition)
                transition.release = (connect.attempt, .stopped)
            }
            lifecycle = .stopped
            isInitializing = false
            return transition
        case .live:
            return Transition(log: .stopped)
        case .idle, .stopped, .paused, .closed:
            return nil
        }
    }

    /// The connect deadline of `attempt` passed: its context applies, its caller is released with
    /// the timeout warning, and the client keeps waiting for the set (its `ready` comes with it).
    mutating func deadlinePassed(for attempt: ConnectionAttempt) -> Transition? {
        guard case .connecting(var connect) = lifecycle, connect.attempt === attempt, connect.isCallerWaiting
        else { return nil }
        var transition = Transition(log: .timedOut(attempt.reason, servesKeptValues: source == .keptValues))
        applyContext(of: connect, to: &transition)
        transition.release = (attempt, .timedOut)
        connect.isCallerWaiting = false
        lifecycle = .connecting(connect)
        return transition
    }

    /// `pauseNetwork()`, or the app entering the background (`cause: .lifecycle`, only once the client
    /// has begun a connect): readiness clears, the values stay served. A connect that waited applies
    /// its context and releases its caller, as a timeout does. `nil` when there is nothing to pause.
    mutating func pause(_ cause: Lifecycle.PauseCause) -> Transition? {
        switch (lifecycle, cause) {
        case (.closed, _), (.paused(.app), _), (.paused(.lifecycle), .lifecycle), (.idle, .lifecycle):
            return nil
        case (.paused(.lifecycle), .app):
            lifecycle = .paused(.app)
            return Transition()
        case (.connecting(let connect), _):
            var transition = Transition(transportCall: .disconnect)
            if connect.isCallerWaiting {
                transition.log = .timedOut(connect.attempt.reason, servesKeptValues: source == .keptValues)
                applyContext(of: connect, to: &transition)
                transition.release = (connect.attempt, .interrupted)
            }
            lifecycle = .paused(cause)
            return transition
        case (.idle, .app), (.live, _), (.stopped, _):
            lifecycle = .paused(cause)
            return Transition(transportCall: .disconnect)
        }
    }

    /// Whether returning to the foreground resumes: only a pause the background made.
    var isPausedByLifecycle: Bool { lifecycle == .paused(.lifecycle) }

    /// `close()` or the release of the client: every state ends here. A connect that waited applies its
    /// context and releases its caller with the timeout warning, as a pause does and as the reference page
    /// documents. `nil` when already closed.
    mutating func close() -> Transition? {
        guard !isClosed else { return nil }
        var transition = Transition(transportCall: .close)
        if case .connecting(let connect) = lifecycle, connect.isCallerWaiting {
            transition.log = .timedOut(connect.attempt.reason, servesKeptValues: source == .keptValues)
            applyContext(of: connect, to: &transition)
            transition.release = (connect.attempt, .interrupted)
        }
        lifecycle = .closed
        isInitializing = false
        return transition
    }

    /// Makes the context of `connect` current and publishes it; telemetry then reports what is pending.
    private mutating func applyContext(of connect: Connect, to transition: inout Transition) {
        context = connect.context
        transition.appliesContext = true
        transition.events.append(.contextUpdated(connect.context))
    }
}
