import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Opens a stream with URLSession and collects every byte it delivers; `URLSession.bytes` does not
/// exist on Linux, so a data delegate does the reading.
final class StreamCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: `bytes`, `status`, `isFinished` and `session` are only touched while `lock` is held.
    private let lock = NSLock()
    private var bytes = Data()
    private var status: Int?
    private var isFinished = false
    private var session: URLSession?

    /// Starts a POST to `url` with `body`.
    func start(url: URL, body: String, headers: [String: String] = [:]) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        lock.withLock { self.session = session }
        session.dataTask(with: request).resume()
    }

    /// Cancels the request and releases the session.
    func cancel() {
        let session = lock.withLock { () -> URLSession? in
            defer { self.session = nil }
            return self.session
        }
        session?.invalidateAndCancel()
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
    var statusCode: Int? { lock.withLock { status } }
    var finished: Bool { lock.withLock { isFinished } }

    /// The events received so far.
    var events: [SSEEvent] { SSEEvent.parse(text) }

    /// Waits until `predicate` holds for the events received, up to `timeout` seconds.
    /// - Returns: The events.
    @discardableResult
    func waitForEvents(
        timeout: TimeInterval = 5,
        _ predicate: ([SSEEvent]) -> Bool
    ) async throws -> [SSEEvent] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let events = self.events
            if predicate(events) { return events }
            guard Date() < deadline else { throw CollectorTimeout(received: text) }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// Waits until the response ends, up to `timeout` seconds.
    func waitUntilFinished(timeout: TimeInterval = 5) async throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !finished {
            guard Date() < deadline else { throw CollectorTimeout(received: text) }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { status = (response as? HTTPURLResponse)?.statusCode }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { bytes.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.withLock { isFinished = true }
    }
}
