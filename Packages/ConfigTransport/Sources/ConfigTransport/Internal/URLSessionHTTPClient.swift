@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

#if canImport(FoundationNetworking)
internal import FoundationNetworking
#endif

/// The HTTP layer over `URLSession` with a data delegate, which streams on Linux too.
///
/// On Linux, swift-corelibs-foundation's `URLSession` busy-loops while a response stays open (an idle
/// stream burns most of a core), so ``PlatformHTTPClient`` sends requests there to ``SocketHTTPClient``
/// instead; this client keeps everything on Apple platforms, and `https` on Linux only when the system's
/// OpenSSL does not load.
///
/// The session is ephemeral with no cookies, no credential storage and no URL cache; requests ignore any
/// local cache; redirects are not followed (the 3xx response is handed on as it is). The body goes through
/// a ``BoundedParts`` buffer: when the reader falls a full buffer behind, the task is suspended until it
/// catches up, so that the session reads no faster than the parser consumes.
final class URLSessionHTTPClient: HTTPClient {
    private let session: URLSession
    private let delegate: SessionDelegate
    /// Whether the session was invalidated; creating a task in an invalidated session traps on Apple platforms.
    private let isShutdown = Locked(false)

    init(logger: any ConfigDirectorLogger) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        delegate = SessionDelegate(logger: logger)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    func start(_ request: HTTPRequest) -> HTTPExchange {
        var urlRequest = URLRequest(
            url: request.url,
            cachePolicy: .reloadIgnoringLocalCacheData,
            // URLSession has no "never": a request without a timeout waits a year between two packets.
            timeoutInterval: request.timeout.isFinite ? request.timeout : 365 * 24 * 3600
        )
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let session = self.session
        let delegate = self.delegate
        let handle = Locked<CancelHandle?>(nil)
        let parts = BoundedParts(
            onDrained: { handle.withLock { $0 }?.resume() },
            onAbandoned: { handle.withLock { $0 }?.cancel() }
        )
        let cancelTask: CancelHandle? = isShutdown.withLock { isShutdown in
            guard !isShutdown else { return nil }
            let task = session.dataTask(with: urlRequest)
            delegate.register(parts, for: task.taskIdentifier)
            return CancelHandle(task: task)
        }
        guard let cancelTask else {
            parts.finish(throwing: CancellationError())
            return HTTPExchange(parts: parts.stream, cancel: {})
        }
        handle.withLock { $0 = cancelTask }
        cancelTask.resume()
        return HTTPExchange(parts: parts.stream, cancel: { cancelTask.cancel() })
    }

    func shutdown() {
        let session = self.session
        let invalidatedNow = isShutdown.withLock { isShutdown in
            defer { isShutdown = true }
            if !isShutdown { session.invalidateAndCancel() }
            return !isShutdown
        }
        if invalidatedNow { delegate.finishAll() }
    }
}

/// Cancels one data task from any thread.
private final class CancelHandle: Sendable {
    // `URLSessionTask` is thread-safe for `cancel()`; it is not declared Sendable on every platform.
    private let task: Locked<URLSessionTask>

    init(task: URLSessionTask) {
        self.task = Locked(task)
    }

    func cancel() {
        task.withLock { $0.cancel() }
    }

    func resume() {
        task.withLock { $0.resume() }
    }

    func suspend() {
        task.withLock { $0.suspend() }
    }
}

/// Routes the session's callbacks to the exchange each task belongs to.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let logger: any ConfigDirectorLogger
    private let continuations = Locked<[Int: BoundedParts]>([:])

    init(logger: any ConfigDirectorLogger) {
        self.logger = logger
    }

    func register(_ parts: BoundedParts, for taskIdentifier: Int) {
        continuations.withLock { $0[taskIdentifier] = parts }
    }

    func finishAll() {
        let all = continuations.withLock { continuations in
            defer { continuations.removeAll() }
            return Array(continuations.values)
        }
        for continuation in all {
            continuation.finish(throwing: CancellationError())
        }
    }

    private func continuation(for task: URLSessionTask) -> BoundedParts? {
        continuations.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let statusCode = (response as? HTTPURLResponse)?.statusCode ?? 0
        var headers: [String: String] = [:]
        for (name, value) in (response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        _ = continuation(for: dataTask)?.offer(.head(HTTPResponseHead(statusCode: statusCode, headers: headers)))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // Suspended when the reader falls a full buffer behind, resumed by the buffer's `onDrained`.
        switch continuation(for: dataTask)?.offer(.body(data), pausing: { dataTask.suspend() }) {
        case .ended:
            dataTask.cancel()
        case .accepted, .full, nil:
            break
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let continuation = continuations.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        if let error {
            continuation?.finish(throwing: error)
        } else {
            continuation?.finish()
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        logger.debug("Not following a redirect (status \(response.statusCode)).")
        completionHandler(nil)
    }
}
