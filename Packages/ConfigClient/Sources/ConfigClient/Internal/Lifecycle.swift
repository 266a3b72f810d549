@_spi(Internal) internal import ConfigModel

/// Where a client is in its life, held in ``ClientState`` and changed only by the transitions of
/// `ClientState+Lifecycle.swift`.
///
/// ```
///             initialize / updateContext / resumeNetwork (from every state but closed)
///   idle ──────────────────────────────▶ connecting ──config set──▶ live ◀─┐ a refusal or a 204
///                                         │                          └───┘ while live: logged, still live
///                 refusal (4xx but 429),  │  deadline: the caller is released, still connecting
///                 204                     ▼
///                                       stopped
///   pause ──▶ paused(app | lifecycle) (from every state but closed; from idle only pauseNetwork)
///   every state ── close ──▶ closed
/// ```
///
/// A 204 or a refusal while live leaves the client live: it keeps serving the values that arrived for
/// its context, as ready as before, and nothing reconnects until the next connect. The table of every
/// (state, event) pair is `LifecycleTransitionTableTests`.
enum Lifecycle: Equatable {
    /// Created: nothing was connected yet.
    case idle
    /// A connect began and its config set has not arrived yet.
    case connecting(Connect)
    /// Config state arrived for the newest connect, begun for `reason`.
    case live(ConnectReason)
    /// The service refused the connection for good or ended it (204) before the connect's config set
    /// arrived; nothing is retried until the next connect.
    case stopped
    /// The connection was released by `pauseNetwork` or by the app entering the background.
    case paused(PauseCause)
    /// `close` was called, or the client was released.
    case closed

    /// What released the connection of a paused client.
    enum PauseCause: Equatable {
        /// `pauseNetwork()`.
        case app
        /// The app entered the background; returning to the foreground resumes.
        case lifecycle
    }
}

/// The connect a ``Lifecycle/connecting(_:)`` client waits on.
struct Connect: Equatable {
    /// The connect's identity and the promise its caller awaits.
    let attempt: ConnectionAttempt
    /// The context it connects with, validated.
    let context: ConfigDirectorContext?
    /// Whether the caller still waits: `false` once the deadline passed or a pause interrupted the
    /// connect, which also applied its context.
    var isCallerWaiting = true

    static func == (lhs: Connect, rhs: Connect) -> Bool {
        lhs.attempt === rhs.attempt && lhs.context == rhs.context && lhs.isCallerWaiting == rhs.isCallerWaiting
    }
}
