@_spi(Internal) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport

/// Everything a client knows that changes, guarded as one by ``ClientCore``'s lock.
struct ClientState {
    /// The configs served.
    var table = EvaluationTable()
    /// Where the configs served come from.
    var source: ConfigValueSource = .none
    /// Where the client is in its life; changed only by the transitions of `ClientState+Lifecycle.swift`.
    var lifecycle = Lifecycle.idle
    /// Whether the client waits for its very first config state: set when `initialize` is called on a
    /// client that never received any, cleared by that config state, a fatal refusal or `close`.
    var isInitializing = false
    /// The refusal for good (PROTOCOL §4) that stopped the newest connect, until the next connect begins.
    var refusal: ConfigDirectorError?
    /// The context evaluations run against (one reference: copying it retains its storage alone).
    var context: ConfigDirectorContext? {
        didSet { contextGeneration += 1 }
    }
    /// A number that changes with the context, which telemetry caches compare cheaply.
    private(set) var contextGeneration: UInt64 = 0
    /// The `values(for:)` streams.
    var watchers = WatchRegistry()
    /// Whether the `evaluations` broadcast has subscribers, as last read under this lock.
    var publishesEvaluations = false
    /// The values received that wait for `activate()` (``UpdatePolicy/onActivate``): the sets received since the
    /// last activation, merged into one.
    var pendingSet: ConfigSet?
    /// What the connection's health is read from, beside the lifecycle.
    var connection = ConnectionRecord()

    /// Whether config state arrived for the newest connect, and the connection was not paused since.
    var isReady: Bool {
        if case .live = lifecycle { return true }
        return false
    }

    /// Whether a live set received now waits for `activate()` under ``UpdatePolicy/onActivate``: it does unless it
    /// ends the connect of an `initialize` or an `updateContext`.
    var holdsLiveSetsBack: Bool {
        switch lifecycle {
        case .connecting(let connect): connect.attempt.reason == .networkResume
        case .live: true
        case .idle, .stopped, .paused, .closed: false
        }
    }

    /// Whether `close` was called.
    var isClosed: Bool {
        if case .closed = lifecycle { return true }
        return false
    }
}
