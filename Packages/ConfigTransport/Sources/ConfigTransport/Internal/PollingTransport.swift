@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

/// The polling transport of PROTOCOL §5: the first fetch at `connect`, then one fetch per interval.
final class PollingTransport: Transport {
    private let slot: ConnectionSlot
    private let http: any HTTPClient
    private let runner: PollRunner

    init(
        configuration: TransportConfiguration,
        http: any HTTPClient,
        handler: @escaping @Sendable (TransportEvent) -> Void
    ) {
        slot = ConnectionSlot(handler: handler)
        self.http = http
        runner = PollRunner(
            configuration: configuration,
            http: http,
            slot: slot,
            requests: ConnectionRequestBuilder(configuration: configuration),
            outage: OutageLog(logger: configuration.logger),
            memory: Locked(PollRunner.Memory())
        )
    }

    deinit {
        close()
    }

    func connect(context: ConfigDirectorContext?, reason: ConnectReason) {
        let runner = self.runner
        if let error = runner.memory.withLock(\.permanentError) {
            slot.start { generation in runner.slot.emit(.connectionState(.failed(error)), generation: generation) }
            return
        }
        let started = slot.start { generation in
            await runner.run(context: context, generation: generation)
        }
        if !started { runner.configuration.logger.debug("connect was called on a closed polling transport.") }
    }

    func disconnect() {
        slot.stop(closing: false)
    }

    func close() {
        if slot.stop(closing: true) { http.shutdown() }
    }
}

/// The work of polling for one context until stopped, cancelled or refused for good.
struct PollRunner: Sendable {
    /// What polling keeps across connects.
    struct Memory: Sendable {
        /// The `timestamp` of the last decoded 200 (`nil` when it had none); kept when the context changes.
        var lastUpdateTimestamp: String?
        /// The fatal error that stopped polling for good.
        var permanentError: ConfigDirectorError?
    }

    /// How one fetch ended.
    private enum Outcome {
        case applied(ConfigSet)
        case unchanged
        case fatal(ConfigDirectorError)
        case transient(String)
        case cancelled
    }

    let configuration: TransportConfiguration
    let http: any HTTPClient
    let slot: ConnectionSlot
    let requests: ConnectionRequestBuilder
    let outage: OutageLog
    let memory: Locked<Memory>
    /// The warning about an oversized response, logged once for the life of the transport.
    private let oversizedRefusal = LogOnce()

    private var logger: any ConfigDirectorLogger { configuration.logger }

    /// Fetches now, then once per interval.
    func run(context: ConfigDirectorContext?, generation: Int) async {
        var isOpen = false
        var failures = 0
        let interval = configuration.effectivePollingInterval
        while !Task.isCancelled {
            switch await fetch(context: context, generation: generation) {
            case .cancelled:
                return
            case .fatal(let error):
                memory.withLock { $0.permanentError = error }
                // The owner logs the one error of a refused connection (PROTOCOL §4).
                logger.debug(
                    "Polling was refused" + (error.refusedStatusCode.map { " with status \($0)" } ?? "")
                        + ". The error is unrecoverable: polling stopped for good;"
                        + " the SDK keeps serving the values it has."
                )
                slot.emit(.connectionState(.failed(error)), generation: generation)
                return
            case .applied(let set):
                guard opened(&isOpen, failures: &failures, generation: generation),
                    slot.emit(.configSet(set), generation: generation)
                else { return }
            case .unchanged:
                guard opened(&isOpen, failures: &failures, generation: generation) else { return }
            case .transient(let reason):
                failures += 1
                isOpen = false
                outage.transientFailure("A poll failed (\(reason)); polling continues every \(interval) s.")
                guard
                    slot.emit(
                        .connectionState(.reconnecting(attempt: failures, delay: interval)),
                        generation: generation
                    )
                else { return }
            }
            do {
                try await configuration.clock.sleep(seconds: interval)
            } catch {
                return
            }
        }
    }

    /// Notes a successful fetch; tells the owner when polling was not open. Returns whether still current.
    private func opened(_ isOpen: inout Bool, failures: inout Int, generation: Int) -> Bool {
        failures = 0
        outage.recovered("Polling succeeded again.")
        guard !isOpen else { return slot.isCurrent(generation) }
        isOpen = true
        return slot.emit(.connectionState(.open), generation: generation)
    }

    private func fetch(context: ConfigDirectorContext?, generation: Int) async -> Outcome {
        let timeout = configuration.pollingRequestTimeout
        let request = requests.pollingRequest(
            context: context,
            lastUpdateTimestamp: memory.withLock(\.lastUpdateTimestamp),
            timeout: timeout
        )
        let response = await ReadResponse.read(
            request,
            through: http,
            limit: configuration.maxEventSize,
            deadline: timeout,
            clock: configuration.clock
        )
        guard !Task.isCancelled, slot.isCurrent(generation) else { return .cancelled }
        switch response {
        case .timedOut:
            return .transient("no response within \(timeout) s")
        case .failed(let error):
            return .transient("network error: \(error.localizedDescription)")
        case .tooLarge(_, let limit):
            oversizedRefusal.log(
                "A polling response larger than \(limit) bytes was refused without reading the rest. Raise "
                    + "ConnectionOptions.maxEventSize if the environment's configs need more. This is logged once.",
                at: .warn,
                to: logger
            )
            return .transient("a response larger than \(limit) bytes")
        case .complete(let head, let body):
            return handle(head: head, body: body, generation: generation)
        }
    }

    private func handle(head: HTTPResponseHead, body: Data, generation: Int) -> Outcome {
        let secret = configuration.clientSDKKey
        switch head.statusCode {
        case 200:
            let set: ConfigSet
            do {
                set = try ConfigSet(jsonBytes: body)
            } catch {
                logger.warn("A polled config set that does not decode was skipped.", error: error)
                logger.debug(
                    "Skipped polling body: "
                        + ResponseText.quote(body, length: ResponseText.debugPreviewLength, redacting: secret)
                )
                return .unchanged
            }
            memory.withLock { $0.lastUpdateTimestamp = set.timestamp }
            return .applied(set)
        case 201...299:
            return .unchanged
        case 400...499 where ![413, 429, 431].contains(head.statusCode):
            // 413 and 431 say our own request was too large for a proxy: retried, not a refusal.
            logger.debug(
                "Polling status \(head.statusCode) body: "
                    + ResponseText.quote(body, length: ResponseText.debugPreviewLength, redacting: secret)
            )
            let message = ResponseText.fatalMessage(statusCode: head.statusCode, body: body, redacting: secret)
            return .fatal(.connectionFailed(message: message, statusCode: head.statusCode))
        case 300...399:
            return .transient("status \(head.statusCode): redirects are not followed")
        default:
            return .transient("status \(head.statusCode)")
        }
    }
}
