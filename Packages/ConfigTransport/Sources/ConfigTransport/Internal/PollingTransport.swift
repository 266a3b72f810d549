@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

/// The work of polling for one context until stopped, cancelled or refused for good.
struct PollRunner: ConnectionRunner {
    static let name = "polling"

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
        /// A failed poll; the next waits the interval, or the server's longer `Retry-After`; `statusCode` when a
        /// response said what went wrong.
        case transient(String, retryAfter: Double? = nil, statusCode: Int? = nil)
        case cancelled
    }

    let shell: TransportShell
    let memory = Locked(Memory())

    init(shell: TransportShell) {
        self.shell = shell
    }

    private var configuration: TransportConfiguration { shell.configuration }
    private var slot: ConnectionSlot { shell.slot }
    private var logger: any ConfigDirectorLogger { shell.logger }

    /// Fetches now, then once per interval; once refused for good, fails every connect with the same error.
    func run(context: ConfigDirectorContext?, generation: Int) async {
        if let error = memory.withLock(\.permanentError) {
            slot.emit(.connectionState(.failed(error)), generation: generation)
            return
        }
        var isOpen = false
        var failures = 0
        let interval = configuration.effectivePollingInterval
        while !Task.isCancelled {
            var wait = interval
            switch await fetch(context: context, generation: generation) {
            case .cancelled:
                return
            case .fatal(let error):
                memory.withLock { $0.permanentError = error }
                shell.fail(
                    error,
                    generation: generation,
                    refused: "Polling was refused",
                    consequence: "polling stopped for good; the SDK keeps serving the values it has."
                )
                return
            case .applied(let set):
                guard opened(&isOpen, failures: &failures, generation: generation),
                    slot.emit(.configSet(set), generation: generation)
                else { return }
            case .unchanged:
                guard opened(&isOpen, failures: &failures, generation: generation) else { return }
            case .transient(let reason, let retryAfter, let statusCode):
                failures += 1
                isOpen = false
                if let retryAfter, retryAfter.isFinite {
                    wait = max(interval, min(retryAfter, ReconnectBackoff.maximumRetryAfter))
                }
                shell.outage.transientFailure(
                    "A poll failed (\(reason)); polling continues every \(interval) s"
                        + (wait > interval ? ", the next in \(wait) s as the service asked." : "."))
                let failure = TransportFailure(reason, statusCode: statusCode)
                guard
                    slot.emit(
                        .connectionState(.reconnecting(attempt: failures, delay: wait, failure: failure)),
                        generation: generation
                    )
                else { return }
            }
            do {
                try await configuration.clock.sleep(seconds: wait)
            } catch {
                return
            }
        }
    }

    /// Notes a successful fetch; tells the owner when polling was not open. Returns whether still current.
    private func opened(_ isOpen: inout Bool, failures: inout Int, generation: Int) -> Bool {
        failures = 0
        shell.outage.recovered("Polling succeeded again.")
        guard !isOpen else { return slot.isCurrent(generation) }
        isOpen = true
        return slot.emit(.connectionState(.open), generation: generation)
    }

    private func fetch(context: ConfigDirectorContext?, generation: Int) async -> Outcome {
        let timeout = configuration.connectionTimeout
        let request = shell.requests.pollingRequest(
            context: context,
            lastUpdateTimestamp: memory.withLock(\.lastUpdateTimestamp),
            timeout: timeout
        )
        let response = await ReadResponse.read(
            request,
            through: shell.http,
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
            shell.oversizedRefusal.log(
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
        switch StatusVerdict(for: head, clock: configuration.clock) {
        case .payload:
            let decoded: ConfigSet?
            do {
                decoded = try ConfigSet(jsonBytes: body)
            } catch {
                shell.logSkipped(body, what: "polled config set", payloadName: "polling body", error: error)
                return .unchanged
            }
            guard let set = decoded else {
                // PROTOCOL §5: a protocol violation, never a full set without configs.
                return .transient(
                    "the 200 response has no configs object, so it is not a config set", statusCode: head.statusCode)
            }
            memory.withLock { $0.lastUpdateTimestamp = set.timestamp }
            return .applied(set)
        case .noContent, .otherSuccess:
            return .unchanged
        case .fatal:
            return .fatal(shell.refusal(statusCode: head.statusCode, body: body, subject: "Polling"))
        case .retry(let reason, let retryAfter, _):
            // No Last-Event-ID to drop; a longer Retry-After than the interval wins (PROTOCOL §5).
            return .transient(reason, retryAfter: retryAfter, statusCode: head.statusCode)
        }
    }
}
