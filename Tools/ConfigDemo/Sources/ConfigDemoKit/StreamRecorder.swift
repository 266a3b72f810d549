@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

/// Consumes an `AsyncStream` on a task of its own and keeps every element with the time it arrived, so
/// that a step can wait for the element it expects and measure when it came.
final class StreamRecorder<Element: Sendable>: Sendable {
    /// An element and the moment the recorder received it.
    struct Received: Sendable {
        var element: Element
        var receivedAt: Date
    }

    private let received: Locked<[Received]>
    private let consumer: Task<Void, Never>

    init(_ stream: AsyncStream<Element>) {
        let received = Locked<[Received]>([])
        self.received = received
        consumer = Task {
            for await element in stream {
                received.withLock { $0.append(Received(element: element, receivedAt: Date())) }
            }
        }
    }

    deinit {
        consumer.cancel()
    }

    /// How many elements arrived so far; pass it as `after` to wait only for later ones.
    var count: Int { received.withLock { $0.count } }

    /// Every element received so far.
    var elements: [Element] { received.withLock { $0.map(\.element) } }

    /// Waits for the first element at index `after` or later that satisfies `predicate`.
    /// - Returns: The element and when it arrived, or `nil` when none came within `timeout` seconds.
    func first(
        after index: Int = 0,
        within timeout: TimeInterval,
        where predicate: (Element) -> Bool = { _ in true }
    ) async -> Received? {
        await poll(within: timeout) {
            received.withLock { received in received.dropFirst(index).first { predicate($0.element) } }
        }
    }

    /// Stops consuming the stream.
    func cancel() {
        consumer.cancel()
    }
}

/// Calls `check` every few milliseconds until it returns a value or `timeout` seconds pass.
func poll<Result>(within timeout: TimeInterval, _ check: () -> Result?) async -> Result? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
        if let result = check() { return result }
        guard Date() < deadline, !Task.isCancelled else { return nil }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
}
