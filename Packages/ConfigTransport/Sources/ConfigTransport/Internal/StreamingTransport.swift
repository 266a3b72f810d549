@_spi(Internal) internal import ConfigModel
internal import Foundation

/// The streaming transport of PROTOCOL §4: one Server-Sent Events connection, reconnected with backoff.
final class StreamingTransport: Transport {
    private let slot: ConnectionSlot
    private let http: any HTTPClient
    private let runner: StreamRunner

    init(
        configuration: TransportConfiguration,
        http: any HTTPClient,
        handler: @escaping @Sendable (TransportEvent) -> Void
    ) {
        slot = ConnectionSlot(handler: handler)
        self.http = http
        runner = StreamRunner(
            configuration: configuration,
            http: http,
            slot: slot,
            requests: ConnectionRequestBuilder(configuration: configuration),
            outage: OutageLog(logger: configuration.logger)
        )
    }

    deinit {
        close()
    }

    func connect(context: ConfigDirectorContext?, reason: ConnectReason) {
        let runner = self.runner
        let started = slot.start { generation in
            await runner.run(context: context, generation: generation)
        }
        if !started { runner.configuration.logger.debug("connect was called on a closed streaming transport.") }
    }

    func disconnect() {
        slot.stop(closing: false)
    }

    func close() {
        if slot.stop(closing: true) { http.shutdown() }
    }
}

/// The work of one streaming connection and its automatic reconnects.
struct StreamRunner: Sendable {
    let configuration: TransportConfiguration
    let http: any HTTPClient
    let slot: ConnectionSlot
    let requests: ConnectionRequestBuilder
    let outage: OutageLog
    /// The warning about an oversized event, logged once for the life of the transport.
    private let oversizedRefusal = LogOnce()

    private var logger: any ConfigDirectorLogger { configuration.logger }

    /// How one connection ended.
    private enum Ending {
        /// The task was cancelled: disconnect, close, or a newer connect.
        case cancelled
        /// The service answered 204.
        case stopped
        /// The service refused the connection for good.
        case fatal(ConfigDirectorError)
        /// Anything else: reconnect with backoff.
        case transient(reason: String, delivered: Bool, retryAfter: Double?)
    }

    /// Connects, and reconnects with backoff until stopped, cancelled or refused for good.
    func run(context: ConfigDirectorContext?, generation: Int) async {
        var attempt = 0
        var lastEventID: String?
        var isReconnect = false
        while !Task.isCancelled {
            let request = requests.streamingRequest(context: context, lastEventID: isReconnect ? lastEventID : nil)
            let ending = await stream(request, generation: generation, lastEventID: &lastEventID)
            switch ending {
            case .cancelled:
                return
            case .stopped:
                logger.info(
                    "The service answered 204 No Content: streaming stopped and will not reconnect."
                )
                slot.emit(.connectionState(.stopped), generation: generation)
                return
            case .fatal(let error):
                // The owner logs the one error of a refused connection (PROTOCOL §4).
                logger.debug(
                    "The streaming connection was refused"
                        + (error.refusedStatusCode.map { " with status \($0)" } ?? "")
                        + ". The error is unrecoverable: the SDK will not reconnect"
                        + " and keeps serving the values it has."
                )
                slot.emit(.connectionState(.failed(error)), generation: generation)
                return
            case .transient(let reason, let delivered, let retryAfter):
                if delivered { attempt = 0 }
                attempt += 1
                let delay = ReconnectBackoff.reconnectDelay(
                    forAttempt: attempt,
                    randomFraction: configuration.randomFraction(),
                    retryAfter: retryAfter
                )
                outage.transientFailure("The streaming connection failed (\(reason)); reconnecting with backoff.")
                logger.debug("Streaming reconnect attempt \(attempt) in \(delay) s (\(reason)).")
                guard slot.emit(.connectionState(.reconnecting(attempt: attempt, delay: delay)), generation: generation)
                else { return }
                do {
                    try await configuration.clock.sleep(seconds: delay)
                } catch {
                    return
                }
                isReconnect = true
            }
        }
    }

    /// Opens one connection and reads it to its end.
    private func stream(
        _ request: HTTPRequest,
        generation: Int,
        lastEventID: inout String?
    ) async -> Ending {
        let exchange = http.start(request)
        var errorBodyDeadline: Task<Void, Never>?
        defer {
            errorBodyDeadline?.cancel()
            exchange.cancel()
        }
        var parser = SSEParser(maxEventSize: configuration.maxEventSize, lastEventID: lastEventID)
        var delivered = false
        var fatalStatus: Int?
        var errorBody = Data()
        do {
            reading: for try await part in exchange.parts {
                switch part {
                case .head(let head):
                    switch head.statusCode {
                    case 204:
                        return .stopped
                    case 200...299:
                        guard slot.emit(.connectionState(.open), generation: generation) else { return .cancelled }
                    case 429, 503:
                        let retryAfter = head.value(forHeader: "Retry-After").flatMap {
                            RetryAfter.seconds(from: $0, now: configuration.clock.now())
                        }
                        return .transient(reason: "status \(head.statusCode)", delivered: false, retryAfter: retryAfter)
                    case 300...399:
                        return .transient(
                            reason: "status \(head.statusCode): redirects are not followed",
                            delivered: false,
                            retryAfter: nil
                        )
                    case 413, 431:
                        // Our own request was too large for a server or a proxy on the way, most likely by
                        // its Last-Event-ID: not a refusal of the client. Reconnect with backoff, without it.
                        lastEventID = nil
                        return .transient(
                            reason:
                                "status \(head.statusCode): the request was too large; retrying without Last-Event-ID",
                            delivered: false,
                            retryAfter: nil
                        )
                    case 400...499:
                        fatalStatus = head.statusCode
                        // The error body is only quoted: a server that never ends it must not delay the error.
                        let clock = configuration.clock
                        errorBodyDeadline = Task {
                            do {
                                try await clock.sleep(seconds: ResponseText.errorBodyTimeout)
                            } catch {
                                return
                            }
                            exchange.cancel()
                        }
                    default:
                        return .transient(reason: "status \(head.statusCode)", delivered: false, retryAfter: nil)
                    }
                case .body(let chunk):
                    if fatalStatus != nil {
                        errorBody.append(chunk.prefix(ResponseText.errorBodyReadLimit - errorBody.count))
                        if errorBody.count >= ResponseText.errorBodyReadLimit { break reading }
                        continue
                    }
                    let items = try parser.feed(chunk)
                    lastEventID = parser.lastEventID
                    for item in items {
                        if !delivered {
                            delivered = true
                            outage.recovered("The streaming connection is delivering again.")
                        }
                        guard deliver(item, generation: generation) else { return .cancelled }
                    }
                }
            }
        } catch let error as SSEParserError {
            guard !Task.isCancelled else { return .cancelled }
            switch error {
            case .eventTooLarge(let limit):
                oversizedRefusal.log(
                    "An event larger than \(limit) bytes was refused; the connection was dropped without reading the"
                        + " rest, and is retried with a growing backoff. Raise ConnectionOptions.maxEventSize if the"
                        + " environment's configs need more. This is logged once.",
                    at: .warn,
                    to: logger
                )
                // A refusal, whatever came before it: the backoff grows instead of starting over.
                return .transient(reason: "an event larger than \(limit) bytes", delivered: false, retryAfter: nil)
            }
        } catch {
            guard !Task.isCancelled else { return .cancelled }
            if let statusCode = fatalStatus { return fatal(statusCode: statusCode, body: errorBody) }
            return .transient(
                reason: "network error: \(error.localizedDescription)",
                delivered: delivered,
                retryAfter: nil
            )
        }
        guard !Task.isCancelled else { return .cancelled }
        if let statusCode = fatalStatus { return fatal(statusCode: statusCode, body: errorBody) }
        return .transient(reason: "the server closed the stream", delivered: delivered, retryAfter: nil)
    }

    private func fatal(statusCode: Int, body: Data) -> Ending {
        logger.debug(
            "Streaming status \(statusCode) body: "
                + ResponseText.quote(
                    body,
                    length: ResponseText.debugPreviewLength,
                    redacting: configuration.clientSDKKey
                )
        )
        let message = ResponseText.fatalMessage(
            statusCode: statusCode,
            body: body,
            redacting: configuration.clientSDKKey
        )
        return .fatal(.connectionFailed(message: message, statusCode: statusCode))
    }

    /// Hands on what the parser read; returns whether the connection is still current.
    private func deliver(_ item: SSEItem, generation: Int) -> Bool {
        switch item {
        case .event(let event):
            do {
                let set = try ConfigSet(jsonBytes: event.data.utf8)
                return slot.emit(.configSet(set), generation: generation)
            } catch {
                logger.warn("A config set that does not decode was skipped.", error: error)
                logger.debug(
                    "Skipped event data: "
                        + ResponseText.quote(
                            Data(event.data.utf8),
                            length: ResponseText.debugPreviewLength,
                            redacting: configuration.clientSDKKey
                        )
                )
                return slot.isCurrent(generation)
            }
        case .comment:
            return slot.isCurrent(generation)
        case .retry(let milliseconds):
            logger.debug(
                "The stream asked for a retry time of \(milliseconds) ms; §4's backoff applies."
            )
            return slot.isCurrent(generation)
        }
    }
}

extension ConfigDirectorError {
    /// The status code of a refused connection.
    var refusedStatusCode: Int? {
        if case .connectionFailed(_, let statusCode) = self { return statusCode }
        return nil
    }
}
