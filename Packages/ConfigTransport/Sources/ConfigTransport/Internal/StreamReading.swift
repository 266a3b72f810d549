internal import Foundation

/// What one streaming connection has read so far: the parser of its events and what the stream
/// decides by (whether it opened, delivered, learned its keep-alives, or is a refusal's error body).
struct StreamReading {
    var parser: SSEParser
    var rhythm = KeepAliveRhythm()
    /// When the response's head said the stream is open: an uptime (``TransportClock/uptime()``).
    var openedAt: Double?
    /// Whether body bytes came.
    var hasBody = false
    /// Whether an item of the stream was handed on.
    var delivered = false
    /// Whether a config set was handed on.
    var deliveredSet = false
    /// The status of a refusal for good, whose body is read to be quoted.
    var fatalStatus: Int?
    var errorBody = Data()

    /// Whether the connection proved itself, for the backoff: it delivered a config set and stayed open
    /// ``ReconnectBackoff/provenAfter`` seconds.
    func isProven(at now: Double) -> Bool {
        guard deliveredSet, let openedAt else { return false }
        return now - openedAt >= ReconnectBackoff.provenAfter
    }
}
