@_spi(Internal) internal import ConfigModel

/// One connect of `initialize`, `updateContext` or `resumeNetwork`, and the promise its caller awaits.
final class ConnectionAttempt: Sendable {
    /// How the wait of an attempt's caller ended.
    enum Outcome: Sendable, Equatable {
        /// Config state arrived for the attempt.
        case received
        /// The connection timeout passed first.
        case timedOut
        /// The service refused the connection for good.
        case failed(ConfigDirectorError)
        /// The service ended the connection without an error (204).
        case stopped
        /// `pauseNetwork` or `close` ended it, or the client was closed before it began.
        case interrupted
    }

    let reason: ConnectReason
    private let promise = Promise<Outcome>()

    init(reason: ConnectReason) {
        self.reason = reason
    }

    /// Ends the wait with `outcome`, unless it has already ended.
    func resolve(_ outcome: Outcome) {
        promise.resolve(outcome)
    }

    /// Waits until the wait ends.
    func outcome() async -> Outcome {
        await promise.value()
    }
}
