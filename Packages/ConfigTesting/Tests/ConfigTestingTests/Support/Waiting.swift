import Foundation
import Testing

/// Waits, in small real sleeps bounded to about two seconds, until `condition` holds.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<400 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return condition()
}

/// Runs `body`, recording an issue and cancelling it when it takes longer than `seconds`, so that a
/// stream that never yields fails the test instead of hanging it.
func withTimeLimit(
    _ seconds: Double = 10,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> Void
) async throws {
    try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
            try await body()
            return true
        }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return false
        }
        if try await group.next() == false {
            Issue.record("The test did not finish within \(seconds) seconds.", sourceLocation: sourceLocation)
        }
        group.cancelAll()
    }
}

/// Work started in its own task, whose result is waited on for a bounded time.
final class Pending<Value: Sendable>: @unchecked Sendable {
    // `result` is guarded by `lock`.
    private let lock = NSLock()
    private var result: Value?

    init(_ body: @escaping @Sendable () async -> Value) {
        Task { [self] in
            let value = await body()
            lock.withLock { result = value }
        }
    }

    /// Whether the work has finished.
    var isFinished: Bool { lock.withLock { result != nil } }

    /// The work's result, or `nil` when it did not finish within about two seconds.
    func value() async -> Value? {
        _ = await eventually { isFinished }
        return lock.withLock { result }
    }
}

/// Every element of a stream, once it finishes.
func elements<Element>(of stream: AsyncStream<Element>) async -> [Element] {
    var elements: [Element] = []
    for await element in stream { elements.append(element) }
    return elements
}
