import Foundation
import TestSupport

/// The longest any end-to-end test waits for one thing to happen, in seconds: well above what a
/// step takes alone (a 503 with `Retry-After: 2` opens in about 2 s), since the suite shares 2 cores
/// with every other suite of the run.
let longestWait: Double = 20

/// Collects what an `AsyncStream` yields from one consuming task, so that a test can wait for an
/// element with a bound; ``cancel()`` ends the consuming task (and with it the stream).
final class StreamCollector<Element: Sendable>: Sendable {
    private let elements: Protected<[Element]>
    private let consumer: Task<Void, Never>

    init(_ stream: AsyncStream<Element>) {
        let elements = Protected<[Element]>([])
        self.elements = elements
        consumer = Task {
            for await element in stream {
                elements.withLock { $0.append(element) }
            }
        }
    }

    deinit {
        consumer.cancel()
    }

    /// Everything yielded so far, in order.
    var all: [Element] { elements.current }

    /// Waits until the elements yielded so far satisfy `predicate`, at most `timeout` seconds.
    /// - Returns: Whether they did in time.
    func wait(timeout: Double = longestWait, until predicate: ([Element]) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { predicate(all) }
    }

    /// Stops consuming.
    func cancel() {
        consumer.cancel()
    }
}
