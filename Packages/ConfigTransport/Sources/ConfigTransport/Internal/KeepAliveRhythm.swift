internal import Foundation

/// What a stream has shown of its keep-alives (PROTOCOL §4): once it has sent two things (comments or events),
/// the longest gap between two of them tells how long a silence means the connection is lost.
///
/// A stream that has sent one thing only (a set, and no keep-alive since) has no rhythm and is never cut for
/// its silence.
struct KeepAliveRhythm {
    /// The least silence that ends a connection, in seconds: three of the service's 15 s keep-alives missed.
    static let minimumWindow = 45.0
    /// How many of the longest gap a silence may last.
    static let missedKeepAlives = 3.0

    /// The uptime (``TransportClock/uptime()``) of the last thing heard: gaps are never measured on the wall clock.
    private var lastHeardAt: Double?
    private var longestGap = 0.0
    private(set) var isLearned = false

    /// Notes that the stream delivered something at `now`, an uptime.
    /// - Returns: The silence that now ends the connection, in seconds, when it was just learned or grew;
    ///   `nil` when it is unknown or unchanged.
    mutating func heard(at now: Double) -> Double? {
        defer { lastHeardAt = now }
        guard let lastHeardAt else { return nil }
        let gap = max(0, now - lastHeardAt)
        let wasLearned = isLearned
        let before = window
        longestGap = max(longestGap, gap)
        isLearned = true
        return !wasLearned || window > before ? window : nil
    }

    /// The silence that ends the connection once learned, in seconds.
    var window: Double { max(Self.minimumWindow, Self.missedKeepAlives * longestGap) }
}
