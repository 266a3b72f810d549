internal import Foundation

/// A whole response read with a size limit, or why it could not be read.
enum ReadResponse: Sendable {
    /// The response arrived complete.
    case complete(HTTPResponseHead, Data)
    /// The body grew past the limit; the exchange was cancelled and nothing more was kept.
    case tooLarge(HTTPResponseHead, limit: Int)
    /// The network failed, or the response ended before its head.
    case failed(any Error)
    /// The deadline passed, or the task was cancelled.
    case timedOut

    /// Reads `exchange` to its end, keeping at most `limit` bytes of body.
    static func read(_ exchange: HTTPExchange, limit: Int) async -> ReadResponse {
        defer { exchange.cancel() }
        var head: HTTPResponseHead?
        var body = Data()
        do {
            for try await part in exchange.parts {
                switch part {
                case .head(let received):
                    head = received
                case .body(let chunk):
                    guard body.count + chunk.count <= limit else {
                        return .tooLarge(head ?? HTTPResponseHead(statusCode: 0), limit: limit)
                    }
                    body.append(chunk)
                }
            }
        } catch {
            return Task.isCancelled ? .timedOut : .failed(error)
        }
        if Task.isCancelled { return .timedOut }
        guard let head else { return .failed(URLError(.badServerResponse)) }
        return .complete(head, body)
    }

    /// Reads `request` through `http` within `seconds` of `clock`'s time.
    static func read(
        _ request: HTTPRequest,
        through http: any HTTPClient,
        limit: Int,
        deadline seconds: Double,
        clock: any TransportClock
    ) async -> ReadResponse {
        await withTaskGroup(of: ReadResponse?.self) { group in
            group.addTask {
                await read(http.start(request), limit: limit)
            }
            group.addTask {
                try? await clock.sleep(seconds: seconds)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .timedOut
        }
    }
}
