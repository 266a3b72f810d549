@_spi(Internal) internal import ConfigModel
internal import Foundation

/// The body of a streaming or polling request (PROTOCOL §2).
struct ConnectionRequestBody: Encodable, Sendable {
    /// The client SDK key.
    var clientSDKKey: String
    /// The context, or `nil` to send `{}`.
    var givenContext: ConfigDirectorContext?
    /// The SDK and app facts.
    var metaContext: MetaContext
    /// The id of this SDK install.
    var instanceID: String
    /// The timestamp of the last polling 200, omitted when unknown; never sent on streaming.
    var lastUpdateTimestamp: String?

    private enum CodingKeys: String, CodingKey {
        case clientSDKKey = "clientSdkKey"
        case givenContext, metaContext
        case instanceID = "instanceId"
        case lastUpdateTimestamp
    }

    private struct EmptyObject: Encodable {}

    /// Encodes the wire form: `givenContext` is `{}` when there is no context; nil fields are omitted.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(clientSDKKey, forKey: .clientSDKKey)
        if let givenContext {
            try container.encode(givenContext, forKey: .givenContext)
        } else {
            try container.encode(EmptyObject(), forKey: .givenContext)
        }
        try container.encode(metaContext, forKey: .metaContext)
        try container.encode(instanceID, forKey: .instanceID)
        try container.encodeIfPresent(lastUpdateTimestamp, forKey: .lastUpdateTimestamp)
    }
}

/// Builds the requests of PROTOCOL §1–§2 from the transport's configuration.
struct ConnectionRequestBuilder: Sendable {
    let configuration: TransportConfiguration
    private let contexts: RequestContext

    init(configuration: TransportConfiguration) {
        self.configuration = configuration
        contexts = RequestContext(logger: configuration.logger)
    }

    /// The request that opens a stream; `Last-Event-ID` only on automatic reconnects that have one, and
    /// only when it is at most ``SSEParser/maximumEventIDLength`` bytes.
    func streamingRequest(context: ConfigDirectorContext?, lastEventID: String?) -> HTTPRequest {
        var headers = configuration.headers(adding: ["Accept": "text/event-stream", "Cache-Control": "no-store"])
        if let lastEventID, !lastEventID.isEmpty, lastEventID.utf8.count <= SSEParser.maximumEventIDLength {
            headers["Last-Event-ID"] = lastEventID
        }
        return HTTPRequest(
            url: configuration.endpoint.streaming,
            headers: headers,
            body: body(context: context, lastUpdateTimestamp: nil, purpose: "streaming"),
            // A stream has no idle timeout: a quiet but open stream is never dropped.
            timeout: .infinity
        )
    }

    /// The request of one poll.
    func pollingRequest(context: ConfigDirectorContext?, lastUpdateTimestamp: String?, timeout: Double) -> HTTPRequest {
        HTTPRequest(
            url: configuration.endpoint.polling,
            headers: configuration.headers(adding: ["Cache-Control": "no-store"]),
            body: body(context: context, lastUpdateTimestamp: lastUpdateTimestamp, purpose: "polling"),
            timeout: timeout
        )
    }

    private func body(context: ConfigDirectorContext?, lastUpdateTimestamp: String?, purpose: String) -> Data {
        let body = ConnectionRequestBody(
            clientSDKKey: configuration.clientSDKKey,
            givenContext: contexts.sendable(context, purpose: purpose),
            metaContext: configuration.metaContext,
            instanceID: configuration.instanceID,
            lastUpdateTimestamp: lastUpdateTimestamp
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(body)
        } catch {
            // Only a context whose traits cannot encode lands here; the service still gets a valid body.
            // The error holds the body, SDK key included: only its summary is logged.
            configuration.logger.error(
                "The context could not be encoded (\(RequestContext.summary(of: error))); sending none."
            )
            var withoutContext = body
            withoutContext.givenContext = nil
            return (try? encoder.encode(withoutContext)) ?? Data("{}".utf8)
        }
    }
}
