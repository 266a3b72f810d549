@_spi(Internal) internal import ConfigModel
internal import Foundation

/// The work of one streaming connection and its automatic reconnects.
struct StreamRunner: ConnectionRunner {
    static let name = "streaming"

    let shell: TransportShell
    /// When a retry waiting out its backoff tries again: the delay, the network returning, the foreground.
    private let gate: RetryGate

    init(shell: TransportShell) {
        self.shell = shell
        gate = RetryGate(monitor: shell.configuration.makeNetworkPathMonitor())
    }

    func networkMayHaveReturned() {
        gate.networkMayHaveReturned()
    }

    func close() {
        gate.close()
    }

    /// The least a stream waits for its response headers, in seconds; a longer connection timeout wins.
    static let minimumHeadTimeout = 30.0
    /// How long a stream waits for the first bytes of its body after its headers, in seconds: the service
    /// sends the full set at once, or a keep-alive within about 15 s.
    static let firstBytesTimeout = 45.0

    private var configuration: TransportConfiguration { shell.configuration }
    private var slot: ConnectionSlot { shell.slot }
    private var logger: any ConfigDirectorLogger { shell.logger }

    /// How one connection ended.
    private enum Ending {
        /// The task was cancelled: disconnect, close, or a newer connect.
        case cancelled
        /// The service answered 204.
        case stopped
        /// The service refused the connection for good.
        case fatal(ConfigDirectorError)
        /// Anything else: reconnect with backoff, started over when the connection `proved` itself (it
        /// delivered a config set and stayed open ``ReconnectBackoff/provenAfter`` seconds); `quiet` for a connection presumed
        /// lost after its keep-alives stopped, which starts an outage at info level; `statusCode` when a response
        /// said what went wrong.
        case transient(
            reason: String, proven: Bool = false, retryAfter: Double? = nil, quiet: Bool = false, statusCode: Int? = nil
        )
    }

    /// Connects, and reconnects with backoff until stopped, cancelled or refused for good.
    func run(context: ConfigDirectorContext?, generation: Int) async {
        var attempt = 0
        var lastEventID: String?
        var isReconnect = false
        while !Task.isCancelled {
            let request = shell.requests.streamingRequest(
                context: context, lastEventID: isReconnect ? lastEventID : nil)
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
                shell.fail(
                    error,
                    generation: generation,
                    refused: "The streaming connection was refused",
                    consequence: "the SDK will not reconnect and keeps serving the values it has."
                )
                return
            case .transient(let reason, let proven, let retryAfter, let quiet, let statusCode):
                if proven { attempt = 0 }
                attempt += 1
                let delay = ReconnectBackoff.reconnectDelay(
                    forAttempt: attempt,
                    randomFraction: configuration.randomFraction(),
                    retryAfter: retryAfter
                )
                shell.outage.transientFailure(
                    "The streaming connection failed (\(reason)); reconnecting with backoff.",
                    startingAt: quiet ? .info : .warn
                )
                logger.debug("Streaming reconnect attempt \(attempt) in \(delay) s (\(reason)).")
                let failure = TransportFailure(reason, statusCode: statusCode)
                guard
                    slot.emit(
                        .connectionState(.reconnecting(attempt: attempt, delay: delay, failure: failure)),
                        generation: generation
                    )
                else { return }
                do {
                    if try await gate.wait(seconds: delay, clock: configuration.clock) == .networkReturned {
                        // Jittered, so that a fleet whose network returns at once does not arrive together.
                        let jitter = configuration.randomFraction() * ReconnectBackoff.networkReturnJitter
                        logger.debug("The network returned: streaming reconnects in \(jitter) s, its backoff anew.")
                        attempt = 0
                        try await configuration.clock.sleep(seconds: jitter)
                    }
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
        let exchange = shell.http.start(request)
        let deadline = ConnectionDeadline(clock: configuration.clock, expire: exchange.cancel)
        defer {
            deadline.lift()
            exchange.cancel()
        }
        let headTimeout = max(configuration.connectionTimeout, Self.minimumHeadTimeout)
        deadline.set(seconds: headTimeout, reason: "no response headers within \(headTimeout) s")
        var reading = StreamReading(
            parser: SSEParser(maxEventSize: configuration.maxEventSize, lastEventID: lastEventID))
        do {
            for try await part in exchange.parts {
                let ending =
                    switch part {
                    case .head(let head):
                        opened(head, &reading, deadline, generation: generation, lastEventID: &lastEventID)
                    case .body(let chunk):
                        try read(chunk, &reading, deadline, generation: generation, lastEventID: &lastEventID)
                    }
                if let ending { return ending }
            }
        } catch let error as SSEParserError {
            guard !Task.isCancelled else { return .cancelled }
            return refused(error)
        } catch {
            return ending(of: reading, deadline, cause: "network error: \(error.localizedDescription)")
        }
        return ending(of: reading, deadline, cause: "the server closed the stream")
    }

    /// What the response's head decides: an ending, or `nil` to read the body.
    private func opened(
        _ head: HTTPResponseHead,
        _ reading: inout StreamReading,
        _ deadline: ConnectionDeadline,
        generation: Int,
        lastEventID: inout String?
    ) -> Ending? {
        switch StatusVerdict(for: head, clock: configuration.clock) {
        case .noContent:
            return .stopped
        case .otherSuccess:
            return .transient(reason: "status \(head.statusCode): only 200 opens a stream", statusCode: head.statusCode)
        case .payload:
            if let notAStream = Self.notAnEventStream(head) {
                return .transient(reason: notAStream, statusCode: head.statusCode)
            }
            deadline.set(
                seconds: Self.firstBytesTimeout,
                reason: "no data within \(Self.firstBytesTimeout) s of the response headers"
            )
            reading.openedAt = configuration.clock.uptime()
            return slot.emit(.connectionState(.open), generation: generation) ? nil : .cancelled
        case .retry(let reason, let retryAfter, let requestTooLarge):
            guard requestTooLarge else {
                return .transient(reason: reason, retryAfter: retryAfter, statusCode: head.statusCode)
            }
            // Most likely too large by its Last-Event-ID: reconnect with backoff, without it.
            lastEventID = nil
            return .transient(
                reason: reason + "; retrying without Last-Event-ID", retryAfter: retryAfter, statusCode: head.statusCode
            )
        case .fatal:
            reading.fatalStatus = head.statusCode
            // The error body is only quoted: a server that never ends it must not delay the error.
            deadline.set(seconds: ResponseText.errorBodyTimeout, reason: "the error body did not end")
            return nil
        }
    }

    /// Reads a chunk of the body: the error body of a refusal, or events to hand on. Returns an ending, or
    /// `nil` to read on.
    private func read(
        _ chunk: Data,
        _ reading: inout StreamReading,
        _ deadline: ConnectionDeadline,
        generation: Int,
        lastEventID: inout String?
    ) throws(SSEParserError) -> Ending? {
        if reading.fatalStatus != nil {
            reading.errorBody.append(chunk.prefix(ResponseText.errorBodyReadLimit - reading.errorBody.count))
            guard reading.errorBody.count >= ResponseText.errorBodyReadLimit else { return nil }
            return ending(of: reading, deadline, cause: "the error body was read")
        }
        if !reading.hasBody {
            reading.hasBody = true
            // Begun: from here only a stream whose keep-alives stopped is dropped for silence.
            deadline.lift()
        }
        if reading.rhythm.isLearned { deadline.noteActivity() }
        let items = try reading.parser.feed(chunk)
        lastEventID = reading.parser.lastEventID
        if !items.isEmpty, let window = reading.rhythm.heard(at: configuration.clock.uptime()) {
            deadline.watchSilence(
                window: window,
                reason: "no byte for \(window) s after keep-alives at most \(window / 3) s apart: the "
                    + "connection is presumed lost"
            )
        }
        for item in items {
            if !reading.delivered {
                reading.delivered = true
                shell.outage.recovered("The streaming connection is delivering again.")
            }
            guard deliver(item, generation: generation, deliveredSet: &reading.deliveredSet) else { return .cancelled }
        }
        return nil
    }

    /// How a connection that ended without an ending of its own ended: a refusal whose body was read, a
    /// stall its deadline cut, or `cause`.
    private func ending(of reading: StreamReading, _ deadline: ConnectionDeadline, cause: String) -> Ending {
        guard !Task.isCancelled else { return .cancelled }
        if let statusCode = reading.fatalStatus { return fatal(statusCode: statusCode, body: reading.errorBody) }
        let proven = reading.isProven(at: configuration.clock.uptime())
        if let stalled = deadline.expiredReason {
            return .transient(reason: stalled, proven: proven, quiet: reading.rhythm.isLearned)
        }
        return .transient(reason: cause, proven: proven)
    }

    /// The ending of a connection whose event was too large.
    private func refused(_ error: SSEParserError) -> Ending {
        switch error {
        case .eventTooLarge(let limit):
            shell.oversizedRefusal.log(
                "An event larger than \(limit) bytes was refused; the connection was dropped without reading the"
                    + " rest, and is retried with a growing backoff. Raise ConnectionOptions.maxEventSize if the"
                    + " environment's configs need more. This is logged once.",
                at: .warn,
                to: logger
            )
            // A refusal, whatever came before it: the backoff grows instead of starting over.
            return .transient(reason: "an event larger than \(limit) bytes")
        }
    }

    /// Why a successful response is not an event stream, when its `Content-Type` names another type: a
    /// captive portal's page or a proxy's, which may stay open for ever. A response without the header is
    /// read as a stream.
    static func notAnEventStream(_ head: HTTPResponseHead) -> String? {
        guard let contentType = head.value(forHeader: "Content-Type") else { return nil }
        let mediaType = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType != "text/event-stream" else { return nil }
        return "status \(head.statusCode) with Content-Type '\(mediaType.prefix(100))', not text/event-stream: the "
            + "answer came from something in front of ConfigDirector, such as a captive portal or a proxy"
    }

    private func fatal(statusCode: Int, body: Data) -> Ending {
        .fatal(shell.refusal(statusCode: statusCode, body: body, subject: "Streaming"))
    }

    /// Logs a message that is not a config set, which PROTOCOL §4 skips with a debug line: never applied, and
    /// never a full set without configs.
    private func skipNotASet(_ event: SSEEvent, _ what: String) {
        logger.debug(
            "A stream message (event '\(event.type)') \(what) was skipped: a heartbeat, or another frame the "
                + "stream carries beside the config sets."
        )
    }

    /// Whether `data` begins, past JSON whitespace, as an object does: a message that does not (`ping`, a
    /// number, an array) is no config set, not a set that failed to decode.
    private static func opensAnObject(_ data: String) -> Bool {
        data.utf8.first { !" \t\n\r".utf8.contains($0) } == UInt8(ascii: "{")
    }

    /// Hands on what the parser read, noting in `deliveredSet` a config set handed on; returns whether the
    /// connection is still current.
    private func deliver(_ item: SSEItem, generation: Int, deliveredSet: inout Bool) -> Bool {
        switch item {
        case .event(let event):
            do {
                guard let set = try ConfigSet(jsonBytes: event.data.utf8) else {
                    skipNotASet(event, "with no configs object")
                    return slot.isCurrent(generation)
                }
                deliveredSet = true
                return slot.emit(.configSet(set), generation: generation)
            } catch  where !Self.opensAnObject(event.data) {
                skipNotASet(event, "that is not a JSON object")
                return slot.isCurrent(generation)
            } catch {
                // An object that does not decode, such as a set cut short: a payload lost, worth a warning.
                shell.logSkipped(Data(event.data.utf8), what: "config set", payloadName: "event data", error: error)
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
