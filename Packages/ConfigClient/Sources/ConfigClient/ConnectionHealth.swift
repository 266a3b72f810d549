public import ConfigModel
public import Foundation

/// The state of a client's connection to ConfigDirector, for a debug screen or a support log.
///
/// Read it with ``ConfigDirectorClient/connectionHealth``, or follow it with
/// ``ConfigDirectorClient/connectionHealthUpdates``. It describes the connection alone: whatever it says, reads
/// go on serving the values the client has (``ConfigDirectorClient/valueSource`` says which), and nothing in it
/// is ever thrown. Its dates are the device's clock.
///
/// ```swift
/// let health = client.connectionHealth
/// if case .waitingToRetry(let until) = health.state, let failure = health.lastFailure {
///     print("\(failure.description) at \(failure.date); next attempt at \(until)")
/// }
/// ```
public struct ConnectionHealth: Sendable, Hashable {
    /// How config values reach the client: the mode of ``ConnectionOptions/mode``.
    public var mode: ConnectionMode
    /// Where the connection is now.
    public var state: State
    /// When a config set last arrived from ConfigDirector (every set a stream delivers, every poll that brings
    /// one; a heartbeat is not a set), or when offline mode's values were applied; `nil` before.
    ///
    /// Values kept on the device and bundled values do not count: they did not arrive in this launch.
    public var lastValuesReceived: Date?
    /// The most recent failure of a connection or a poll, a refusal included, kept after the connection
    /// recovers: compare its ``Failure/date`` with ``lastValuesReceived``. `nil` until one fails.
    public var lastFailure: Failure?
    /// When the next attempt is due while the state is ``State/waitingToRetry(until:)``: the same date. `nil` in
    /// every other state, a polling client's next regular fetch included (the client is not told of each fetch).
    public var nextAttempt: Date?

    /// Creates a health, as the client reports it; for an app's previews and tests of a screen that shows one.
    /// - Parameters:
    ///   - mode: How config values reach the client.
    ///   - state: Where the connection is.
    ///   - lastValuesReceived: When a config set last arrived.
    ///   - lastFailure: The most recent failure.
    ///   - nextAttempt: When the next attempt is due.
    public init(
        mode: ConnectionMode,
        state: State,
        lastValuesReceived: Date? = nil,
        lastFailure: Failure? = nil,
        nextAttempt: Date? = nil
    ) {
        self.mode = mode
        self.state = state
        self.lastValuesReceived = lastValuesReceived
        self.lastFailure = lastFailure
        self.nextAttempt = nextAttempt
    }

    /// Where a client's connection is.
    public enum State: Sendable, Hashable {
        /// Nothing was connected yet: the client was created and ``ConfigDirectorClient/initialize(context:)`` has
        /// not begun. In offline mode, which connects to nothing, the state stays `idle` until the client closes.
        case idle
        /// A connect (`initialize`, `updateContext`, `resumeNetwork`) or a retry is under way, and nothing has
        /// answered it yet.
        case connecting
        /// The stream is open (the service answered it, before its first values too), or the last poll succeeded.
        case connected
        /// The connection or a poll failed (``ConnectionHealth/lastFailure`` says why) and the next attempt is due
        /// at `until`: after the backoff (streaming), the polling interval (polling), or the service's
        /// `Retry-After` when it is longer. The state turns ``connecting`` then; the network or the app coming
        /// back may bring the attempt forward, which shows when it connects or fails.
        case waitingToRetry(until: Date)
        /// ``ConfigDirectorClient/pauseNetwork()`` or the app entering the background released the connection;
        /// ``ConfigDirectorClient/resumeNetwork()`` or the foreground connects again.
        case paused
        /// The service stopped the connection for good, and nothing is retried until the next `initialize`,
        /// `updateContext` or `resumeNetwork`: `refusal` is the error of a refusal (a 4xx other than 413, 429 and
        /// 431, such as a wrong SDK key's 401), `nil` when the service ended the connection with a `204`. The
        /// values that arrived before it are still served.
        case stopped(refusal: ConfigDirectorError?)
        /// ``ConfigDirectorClient/close()`` was called, or the client was released.
        case closed
    }

    /// A failure of a connection or a poll.
    public struct Failure: Sendable, Hashable {
        /// When it failed.
        public var date: Date
        /// What went wrong, in the words of the SDK's log: such as `status 503`, `no response headers within
        /// 30.0 s`, `the server closed the stream`, a network error, or `status 401: refused for good`. It never
        /// holds the SDK key, a context or a response's body.
        public var description: String
        /// The status of the response that failed, when a response did.
        public var statusCode: Int?

        /// Creates a failure.
        /// - Parameters:
        ///   - date: When it failed.
        ///   - description: What went wrong.
        ///   - statusCode: The status of the response that failed, if any.
        public init(date: Date, description: String, statusCode: Int? = nil) {
            self.date = date
            self.description = description
            self.statusCode = statusCode
        }
    }
}
