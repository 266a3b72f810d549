@_spi(Internal) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport

/// Everything a client knows that changes, guarded as one by ``ClientCore``'s lock.
struct ClientState {
    /// The configs served.
    var table = EvaluationTable()
    /// Where the configs served come from.
    var source: ConfigValueSource = .none
    /// The context evaluations run against, boxed so that an evaluation's snapshot retains one object
    /// instead of copying the context's strings and traits.
    private(set) var contextBox: ContextBox?
    /// The context evaluations run against.
    var context: ConfigDirectorContext? {
        get { contextBox?.context }
        set {
            contextBox = newValue.map(ContextBox.init)
            contextGeneration += 1
        }
    }
    /// A number that changes with the context, which telemetry caches compare cheaply.
    private(set) var contextGeneration: UInt64 = 0
    /// The context of the last `initialize` or `updateContext`, which `resumeNetwork` connects with.
    var requestedContext: ConfigDirectorContext?
    /// Whether `initialize` or `updateContext` has been called, so that resuming has a context to use.
    var hasRequestedConnection = false
    /// Whether config state arrived for the current context.
    var isReady = false
    /// Whether the client waits for its very first config state.
    var isInitializing = false
    /// Whether `pauseNetwork` (or the app entering the background) released the connection.
    var isPaused = false
    /// Whether the background released the connection, so that the foreground resumes it.
    var isPausedByLifecycle = false
    /// Whether `close` was called.
    var isClosed = false
    /// The attempt of the operation running, and whether its context has taken effect.
    var attempt: ConnectionAttempt?
    var hasAppliedAttemptContext = false
    /// The reason of the next `ready` event, set while an attempt waits for config state.
    var pendingReadyReason: ConnectReason?
    /// The connection, made on the first connect.
    var transport: (any Transport)?
    /// The `values(for:)` streams.
    var watchers = WatchRegistry()
    /// Whether the `evaluations` broadcast has subscribers, as last read under this lock.
    var publishesEvaluations = false

    /// What evaluating `key` reads. A closed client holds nothing: its evaluations return their
    /// default values.
    func snapshot(for key: String) -> EvaluationSnapshot {
        guard !isClosed else {
            return EvaluationSnapshot(state: nil, isReady: false, contextBox: contextBox, publishesEvaluations: false)
        }
        return EvaluationSnapshot(
            state: table[key],
            isReady: isReady,
            contextBox: contextBox,
            publishesEvaluations: publishesEvaluations
        )
    }
}
