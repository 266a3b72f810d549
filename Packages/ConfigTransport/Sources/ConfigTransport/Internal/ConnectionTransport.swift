@_spi(Internal) internal import ConfigModel
internal import Foundation

/// The connections of a transport, streaming's or polling's: what one connection does, and the name the
/// logs give it. ``ConnectionTransport`` runs them.
protocol ConnectionRunner: Sendable {
    /// The transport's name in the logs, such as `streaming`.
    static var name: String { get }

    /// Creates the runner of a transport's connections.
    init(shell: TransportShell)

    /// Runs one connection, and its retries, until it ends, is refused for good, or is replaced or stopped
    /// (its task is cancelled and ``TransportShell/slot`` no longer takes its events).
    func run(context: ConfigDirectorContext?, generation: Int) async

    /// The network may have returned: a retry waiting out its backoff may try now.
    func networkMayHaveReturned()

    /// The transport closed: stops what the runner started beside its connections.
    func close()
}

extension ConnectionRunner {
    /// Does nothing: the runner has no backoff to cut short.
    func networkMayHaveReturned() {}

    /// Does nothing: the runner started nothing beside its connections.
    func close() {}
}

/// A transport that runs one connection at a time of `Runner`: each connect replaces the last, disconnect
/// stops it, and close stops it for good and shuts the HTTP client down.
final class ConnectionTransport<Runner: ConnectionRunner>: Transport {
    private let shell: TransportShell
    private let runner: Runner

    init(
        configuration: TransportConfiguration,
        http: any HTTPClient,
        handler: @escaping @Sendable (TransportEvent) -> Void
    ) {
        shell = TransportShell(configuration: configuration, http: http, slot: ConnectionSlot(handler: handler))
        runner = Runner(shell: shell)
    }

    deinit {
        close()
    }

    func connect(context: ConfigDirectorContext?, reason: ConnectReason) {
        let runner = self.runner
        let started = shell.slot.start { generation in
            await runner.run(context: context, generation: generation)
        }
        if !started { shell.logger.debug("connect was called on a closed \(Runner.name) transport.") }
    }

    func disconnect() {
        shell.slot.stop(closing: false)
    }

    func close() {
        guard shell.slot.stop(closing: true) else { return }
        shell.http.shutdown()
        runner.close()
    }

    func networkMayHaveReturned() {
        runner.networkMayHaveReturned()
    }
}

/// The streaming transport of PROTOCOL §4: one Server-Sent Events connection, reconnected with backoff.
typealias StreamingTransport = ConnectionTransport<StreamRunner>

/// The polling transport of PROTOCOL §5: the first fetch at `connect`, then one fetch per interval.
typealias PollingTransport = ConnectionTransport<PollRunner>

/// What every connection of one transport shares: its configuration, its HTTP client, its slot, and the
/// logs that span connections.
struct TransportShell: Sendable {
    let configuration: TransportConfiguration
    let http: any HTTPClient
    let slot: ConnectionSlot
    let requests: ConnectionRequestBuilder
    let outage: OutageLog
    /// The warning about an oversized event or response, logged once for the life of the transport.
    let oversizedRefusal = LogOnce()

    init(configuration: TransportConfiguration, http: any HTTPClient, slot: ConnectionSlot) {
        self.configuration = configuration
        self.http = http
        self.slot = slot
        requests = ConnectionRequestBuilder(configuration: configuration)
        outage = OutageLog(logger: configuration.logger, clock: configuration.clock)
    }

    var logger: any ConfigDirectorLogger { configuration.logger }

    /// The error of a refusal (``StatusVerdict/fatal``), its message quoting `body`; the body is also
    /// logged at debug level, the client SDK key redacted.
    /// - Parameter subject: What the debug line names, such as `Streaming`.
    func refusal(statusCode: Int, body: Data, subject: String) -> ConfigDirectorError {
        let secret = configuration.clientSDKKey
        let isFromTheService = ResponseText.isFromTheService(body)
        if !isFromTheService {
            logger.warn("\(subject) status \(statusCode) \(ResponseText.notFromTheService).")
        }
        // A page from something in front of the service is quoted shorter: only an excerpt says what it was.
        let preview = isFromTheService ? ResponseText.debugPreviewLength : ResponseText.errorQuoteLength
        logger.debug(
            "\(subject) status \(statusCode) body: " + ResponseText.quote(body, length: preview, redacting: secret))
        let message = ResponseText.fatalMessage(statusCode: statusCode, body: body, redacting: secret)
        return .connectionFailed(message: message, statusCode: statusCode)
    }

    /// Tells the owner that the connection of `generation` was refused for good. The owner logs the one
    /// error of a refused connection (PROTOCOL §4); this logs what the transport does about it at debug level.
    /// - Parameters:
    ///   - refused: What was refused, such as `The streaming connection was refused`.
    ///   - consequence: What the transport does now.
    func fail(_ error: ConfigDirectorError, generation: Int, refused: String, consequence: String) {
        logger.debug(
            refused + (error.refusedStatusCode.map { " with status \($0)" } ?? "") + ". The error is unrecoverable: "
                + consequence
        )
        slot.emit(.connectionState(.failed(error)), generation: generation)
    }

    /// Logs a config set that was skipped because it does not decode: one warning, and the payload quoted
    /// at debug level.
    /// - Parameters:
    ///   - what: What was skipped, such as `config set`.
    ///   - payloadName: What the debug line calls the payload, such as `event data`.
    func logSkipped(_ payload: Data, what: String, payloadName: String, error: any Error) {
        logger.warn("A \(what) that does not decode was skipped.", error: error)
        logger.debug(
            "Skipped \(payloadName): "
                + ResponseText.quote(
                    payload,
                    length: ResponseText.debugPreviewLength,
                    redacting: configuration.clientSDKKey
                )
        )
    }
}
