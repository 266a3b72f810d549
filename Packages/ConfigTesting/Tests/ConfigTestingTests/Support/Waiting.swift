import Foundation
import TestSupport
import Testing

/// Runs `body`, recording an issue and cancelling it when it takes longer than `seconds`, so that a
/// stream that never yields fails the test instead of hanging it.
func withTimeLimit(
    _ seconds: Double = 45,
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
final class Pending<Value: Sendable>: Sendable {
    private let result = Protected<Value?>(nil)

    init(_ body: @escaping @Sendable () async -> Value) {
        Task { [result] in
            let value = await body()
            result.set(value)
        }
    }

    /// Whether the work has finished.
    var isFinished: Bool { result.current != nil }

    /// The work's result, or `nil` when it did not finish within about two seconds.
    func value() async -> Value? {
        _ = await eventually(timeout: 2) { isFinished }
        return result.current
    }
}

/// Every element of a stream, once it finishes.
func elements<Element>(of stream: AsyncStream<Element>) async -> [Element] {
    var elements: [Element] = []
    for await element in stream { elements.append(element) }
    return elements
}
