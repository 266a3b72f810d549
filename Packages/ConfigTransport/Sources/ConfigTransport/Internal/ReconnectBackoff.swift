/// The reconnect delays of PROTOCOL §4: half fixed, half jitter, doubling up to a cap.
@_spi(Testing) public enum ReconnectBackoff {
    /// The exponent at which the ceiling stops doubling: 2^9 = 512 s.
    public static let maximumExponent = 9
    /// The longest a `Retry-After` can make an attempt wait, in seconds.
    public static let maximumRetryAfter = 3600.0
    /// How long a connection must stay open, having delivered a config set, for the next reconnect's backoff
    /// to start over, in seconds: a server that sends the set and drops each connection at once must not make a
    /// fleet reconnect every second or two.
    public static let provenAfter = 60.0
    /// The most a reconnect waits after the network returned (or the app came back to the foreground), in
    /// seconds, uniformly: in the fleet simulation (Tools/Benchmarks, benchmark 16), 4 s keep any one second under
    /// 35% of a fleet whose network returns at once; 1 s would put all of it in one second.
    public static let networkReturnJitter = 4.0

    /// The delay before reconnect attempt `attempt`, in seconds.
    /// - Parameters:
    ///   - attempt: The attempt number, from 1.
    ///   - randomFraction: A value in `0...1` choosing the jitter.
    /// - Returns: `ceiling/2 + randomFraction * ceiling/2` where `ceiling = 2^min(attempt, 9)`.
    public static func reconnectDelay(forAttempt attempt: Int, randomFraction: Double) -> Double {
        let ceiling = Double(1 << min(max(attempt, 1), maximumExponent))
        let fraction = randomFraction.isFinite ? min(max(randomFraction, 0), 1) : 0
        return ceiling / 2 + fraction * ceiling / 2
    }

    /// The delay before reconnect attempt `attempt` when the server may have asked for a longer wait.
    /// - Parameters:
    ///   - attempt: The attempt number, from 1.
    ///   - randomFraction: A value in `0...1` choosing the jitter.
    ///   - retryAfter: The server's `Retry-After`, in seconds, if any.
    /// - Returns: The larger of the backoff and the `Retry-After`, the latter capped at one hour.
    public static func reconnectDelay(forAttempt attempt: Int, randomFraction: Double, retryAfter: Double?) -> Double {
        let backoff = reconnectDelay(forAttempt: attempt, randomFraction: randomFraction)
        guard let retryAfter, retryAfter.isFinite else { return backoff }
        return max(backoff, min(retryAfter, maximumRetryAfter))
    }
}
