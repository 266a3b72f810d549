@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

/// Sends telemetry batches to the service (PROTOCOL §6): POST with a 5 s timeout.
///
/// A fatal refusal (4xx but 429) stops the reporter for good: that send and every later one return
/// ``TelemetryDeliveryResult/stopped(_:)``. Any other failure drops the batch; nothing is retried.
/// Aggregating, queueing and ordering batches is the caller's job: the client's telemetry collector
/// sends one batch at a time, in order, so that telemetry is serialised in one place.
@_spi(Internal) public final class TelemetryReporter: Sendable {
    /// How long one request may take, in seconds.
    public static let requestTimeout = 5.0
    /// The most bytes of a response body read.
    static let responseReadLimit = 64 * 1024

    private struct State {
        var sends: [Int: Task<TelemetryDeliveryResult, Never>] = [:]
        var nextSendID = 0
        var isClosed = false
        var stopError: ConfigDirectorError?
    }

    private let configuration: TransportConfiguration
    private let http: any HTTPClient
    private let outage: OutageLog
    private let contexts: RequestContext
    private let state = Locked(State())

    /// Creates a reporter with its own HTTP session.
    /// - Parameter configuration: The key, endpoint, metadata, logger and clock to use.
    public convenience init(configuration: TransportConfiguration) {
        self.init(configuration: configuration, httpClient: PlatformHTTPClient(logger: configuration.logger))
    }

    /// Creates a reporter that sends through `httpClient`.
    /// - Parameters:
    ///   - configuration: The key, endpoint, metadata, logger and clock to use.
    ///   - httpClient: The HTTP layer.
    @_spi(Testing) public init(configuration: TransportConfiguration, httpClient: any HTTPClient) {
        self.configuration = configuration
        self.http = httpClient
        self.outage = OutageLog(logger: configuration.logger, clock: configuration.clock)
        self.contexts = RequestContext(logger: configuration.logger)
    }

    /// `batch`, without its context when that is too deep to send.
    private func sendableBatch(_ batch: TelemetryBatch) -> TelemetryBatch {
        var sent = batch
        sent.context = contexts.sendable(batch.context, purpose: "telemetry")
        return sent
    }

    deinit {
        close()
    }

    /// Whether the service refused telemetry for good.
    public var isStopped: Bool { state.withLock { $0.stopError != nil } }

    /// Sends a batch; a caller that needs batches in order awaits each send before the next.
    ///
    /// A batch with no evaluations and none dropped is not sent (PROTOCOL §6) and counts as delivered.
    /// - Parameter batch: The batch.
    /// - Returns: What became of it.
    @discardableResult
    public func send(_ batch: TelemetryBatch) async -> TelemetryDeliveryResult {
        let task = state.withLock { current -> Task<TelemetryDeliveryResult, Never>? in
            guard !current.isClosed else { return nil }
            let id = current.nextSendID
            current.nextSendID += 1
            let task = Task { [self] in
                let result = await deliver(batch)
                _ = state.withLock { $0.sends.removeValue(forKey: id) }
                return result
            }
            current.sends[id] = task
            return task
        }
        guard let task else { return .dropped }
        return await task.value
    }

    /// Stops the reporter for good: batches not yet sent are dropped and requests in flight cancelled.
    public func close() {
        let (sends, closedNow) = state.withLock { state in
            defer { state.isClosed = true }
            return (Array(state.sends.values), !state.isClosed)
        }
        for send in sends {
            send.cancel()
        }
        if closedNow { http.shutdown() }
    }

    private func deliver(_ batch: TelemetryBatch) async -> TelemetryDeliveryResult {
        if let stopError = state.withLock(\.stopError) { return .stopped(stopError) }
        guard !Task.isCancelled else { return .dropped }
        guard !batch.evaluatedConfigs.isEmpty || batch.droppedEvaluatedConfigCount > 0 else { return .delivered }
        let logger = configuration.logger
        let body: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            body = try encoder.encode(
                TelemetryRequestBody(
                    clientSDKKey: configuration.clientSDKKey,
                    metaContext: configuration.metaContext,
                    batch: sendableBatch(batch)
                )
            )
        } catch {
            // The error holds the body, SDK key included: only its summary is logged.
            logger.error(
                "A telemetry batch could not be encoded (\(RequestContext.summary(of: error))); it was dropped.")
            return .dropped
        }
        let request = HTTPRequest(
            url: configuration.endpoint.telemetry,
            headers: configuration.headers(),
            body: body,
            timeout: Self.requestTimeout
        )
        let response = await ReadResponse.read(
            request,
            through: http,
            limit: Self.responseReadLimit,
            deadline: Self.requestTimeout,
            clock: configuration.clock
        )
        let head: HTTPResponseHead
        let responseBody: Data
        switch response {
        case .complete(let received, let data):
            (head, responseBody) = (received, data)
        case .tooLarge(let received, _):
            (head, responseBody) = (received, Data())
        case .timedOut:
            outage.transientFailure(
                "A telemetry batch got no response within \(Self.requestTimeout) s; it was dropped."
            )
            return .dropped
        case .failed(let error):
            outage.transientFailure("A telemetry batch failed (\(error.localizedDescription)); it was dropped.")
            return .dropped
        }
        switch head.statusCode {
        case 200...299:
            outage.recovered("Telemetry is delivered again.")
            return .delivered
        case 400...499 where head.statusCode != 429:
            return stop(statusCode: head.statusCode, body: responseBody)
        default:
            outage.transientFailure("A telemetry batch was answered with status \(head.statusCode); it was dropped.")
            return .dropped
        }
    }

    private func stop(statusCode: Int, body: Data) -> TelemetryDeliveryResult {
        let secret = configuration.clientSDKKey
        let message = ResponseText.fatalMessage(statusCode: statusCode, body: body, redacting: secret)
        let error = ConfigDirectorError.connectionFailed(message: message, statusCode: statusCode)
        let (recorded, isFirst) = state.withLock { state in
            if let existing = state.stopError { return (existing, false) }
            state.stopError = error
            return (error, true)
        }
        if isFirst {
            configuration.logger.error(
                "Telemetry was refused with status \(statusCode). "
                    + "The error is unrecoverable: telemetry stopped for good."
            )
            configuration.logger.debug(
                "Telemetry status \(statusCode) body: "
                    + ResponseText.quote(body, length: ResponseText.debugPreviewLength, redacting: secret)
            )
        }
        return .stopped(recorded)
    }
}
