@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// Hands every element to each of its subscribers' `AsyncStream`s; each stream keeps the newest
/// `bufferSize` elements its consumer has not read yet.
final class Broadcast<Element: Sendable>: Sendable {
    private struct Subscribers {
        var continuations: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var nextID: UInt64 = 0
        var isFinished = false
    }

    private let subscribers = Locked(Subscribers())
    private let bufferSize: Int

    init(bufferSize: Int) {
        self.bufferSize = bufferSize
    }

    /// Whether any stream is subscribed, so that callers can skip building elements nobody reads.
    var hasSubscribers: Bool { subscribers.withLock { !$0.continuations.isEmpty } }

    /// A new stream of the elements sent from now on; it finishes at once after ``finish()``.
    /// - Parameters:
    ///   - first: An element the stream yields before any sent, such as the current value of what is sent.
    ///   - onUnsubscribe: Called, outside the lock, once the stream is removed when it ends.
    func subscribe(first: Element? = nil, onUnsubscribe: (@Sendable () -> Void)? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Element.self,
            bufferingPolicy: .bufferingNewest(bufferSize)
        )
        if let first { continuation.yield(first) }
        let id: UInt64? = subscribers.withLock { subscribers in
            guard !subscribers.isFinished else { return nil }
            defer { subscribers.nextID += 1 }
            subscribers.continuations[subscribers.nextID] = continuation
            return subscribers.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.continuations.removeValue(forKey: id) }
            onUnsubscribe?()
        }
        return stream
    }

    /// Sends `element` to every stream.
    func send(_ element: Element) {
        subscribers.withLock { subscribers in
            for continuation in subscribers.continuations.values { continuation.yield(element) }
        }
    }

    /// Finishes every stream, for good.
    func finish() {
        let finished = subscribers.withLock { subscribers in
            subscribers.isFinished = true
            defer { subscribers.continuations = [:] }
            return Array(subscribers.continuations.values)
        }
        for continuation in finished { continuation.finish() }
    }
}
