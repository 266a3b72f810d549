@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import TestSupport

/// A scripted HTTP layer: each request takes the next queued response, or the fallback when none is queued.
final class FakeHTTPClient: HTTPClient {
    /// How a scripted response ends after its parts.
    enum Ending: Sendable {
        /// The body completes.
        case finish
        /// The network fails.
        case fail(URLError.Code)
        /// The response stays open until the test or the transport ends it.
        case hang
    }

    /// A scripted response.
    struct Response: Sendable {
        var parts: [HTTPResponsePart]
        var ending: Ending

        static func status(_ code: Int, headers: [String: String] = [:], body: String = "") -> Response {
            var parts: [HTTPResponsePart] = [.head(HTTPResponseHead(statusCode: code, headers: headers))]
            if !body.isEmpty { parts.append(.body(Data(body.utf8))) }
            return Response(parts: parts, ending: .finish)
        }

        /// The head of an event stream, as the service sends it.
        static let streamHead = HTTPResponsePart.head(
            HTTPResponseHead(statusCode: 200, headers: ["Content-Type": "text/event-stream"]))

        static func stream(_ chunks: [String], ending: Ending = .finish) -> Response {
            Response(parts: [streamHead] + chunks.map { .body(Data($0.utf8)) }, ending: ending)
        }

        static func networkError(_ code: URLError.Code = .networkConnectionLost) -> Response {
            Response(parts: [], ending: .fail(code))
        }

        static let hangingOpen = Response(parts: [streamHead], ending: .hang)
        static let silent = Response(parts: [], ending: .hang)
    }

    /// One started request.
    final class Exchange: Sendable {
        let request: HTTPRequest
        private let continuation: AsyncThrowingStream<HTTPResponsePart, any Error>.Continuation
        private let cancelled = Protected(false)

        init(request: HTTPRequest, continuation: AsyncThrowingStream<HTTPResponsePart, any Error>.Continuation) {
            self.request = request
            self.continuation = continuation
        }

        var isCancelled: Bool { cancelled.current }

        func markCancelled() { cancelled.withLock { $0 = true } }

        func send(_ part: HTTPResponsePart) { continuation.yield(part) }

        func send(_ text: String) { continuation.yield(.body(Data(text.utf8))) }

        func finish() { continuation.finish() }

        func fail(_ code: URLError.Code) { continuation.finish(throwing: URLError(code)) }
    }

    private struct State {
        var queue: [Response] = []
        var fallback: Response
        var exchanges: [Exchange] = []
        var shutdownCount = 0
    }

    private let state: Protected<State>

    init(fallback: Response = .silent) {
        state = Protected(State(fallback: fallback))
    }

    func enqueue(_ responses: Response...) {
        state.withLock { $0.queue.append(contentsOf: responses) }
    }

    var exchanges: [Exchange] { state.withLock(\.exchanges) }
    var requests: [HTTPRequest] { exchanges.map(\.request) }
    var requestCount: Int { state.withLock(\.exchanges.count) }
    var shutdownCount: Int { state.withLock(\.shutdownCount) }

    func start(_ request: HTTPRequest) -> HTTPExchange {
        let (parts, continuation) = AsyncThrowingStream.makeStream(
            of: HTTPResponsePart.self,
            throwing: (any Error).self
        )
        let exchange = Exchange(request: request, continuation: continuation)
        let response = state.withLock { state in
            state.exchanges.append(exchange)
            return state.queue.isEmpty ? state.fallback : state.queue.removeFirst()
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { exchange.markCancelled() }
        }
        for part in response.parts {
            continuation.yield(part)
        }
        switch response.ending {
        case .finish: continuation.finish()
        case .fail(let code): continuation.finish(throwing: URLError(code))
        case .hang: break
        }
        return HTTPExchange(parts: parts) {
            exchange.markCancelled()
            continuation.finish(throwing: CancellationError())
        }
    }

    func shutdown() {
        let exchanges = state.withLock { state in
            state.shutdownCount += 1
            return state.exchanges
        }
        for exchange in exchanges {
            exchange.finish()
        }
    }
}
