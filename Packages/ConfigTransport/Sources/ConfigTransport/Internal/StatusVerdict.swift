internal import Foundation

/// What the status of a connection's response tells a transport to do, for streaming (PROTOCOL §4) and
/// polling (§5) alike: the one place that says which status is read, which stops, which is fatal and
/// which is retried.
enum StatusVerdict: Equatable {
    /// 200: read the payload.
    case payload
    /// 204: streaming stops without reconnecting; polling changes nothing.
    case noContent
    /// Another 2xx: streaming tries again later, its body unread (only a 200 opens a stream, as EventSource has
    /// it); polling changes nothing.
    case otherSuccess
    /// A 4xx other than 413, 429 and 431: the service refused the client for good.
    case fatal
    /// Anything else: try again later.
    /// - Parameters:
    ///   - reason: The status, said for the logs.
    ///   - retryAfter: On 429 and 503, the `Retry-After` header in seconds from now, when it reads as one (a
    ///     date counted from the response's own `Date`).
    ///   - requestTooLarge: 413 and 431: the request, not the client, was refused, most likely for its
    ///     `Last-Event-ID`.
    case retry(reason: String, retryAfter: Double?, requestTooLarge: Bool)

    /// The verdict on `head`.
    /// - Parameters:
    ///   - head: The response's status line and headers.
    ///   - clock: Tells the time a `Retry-After` date is counted from when the response has no `Date`.
    init(for head: HTTPResponseHead, clock: any TransportClock) {
        let status = head.statusCode
        switch status {
        case 200:
            self = .payload
        case 204:
            self = .noContent
        case 201...299:
            self = .otherSuccess
        case 300...399:
            self = .retry(
                reason: "status \(status): redirects are not followed", retryAfter: nil, requestTooLarge: false)
        case 413, 431:
            // Our own request was too large for a server or a proxy on the way: not a refusal of the client.
            self = .retry(reason: "status \(status): the request was too large", retryAfter: nil, requestTooLarge: true)
        case 429, 503:
            let retryAfter = RetryAfter.seconds(in: head, localNow: clock.now())
            self = .retry(reason: "status \(status)", retryAfter: retryAfter, requestTooLarge: false)
        case 400...499:
            self = .fatal
        default:
            self = .retry(reason: "status \(status)", retryAfter: nil, requestTooLarge: false)
        }
    }
}
