import Foundation

/// Runs `body`, which blocks (a child process, a slow file), on a thread of its own and suspends the caller
/// until it returns.
///
/// A test's blocking set-up must not hold a thread of Swift's cooperative pool: the pool is as wide as the
/// machine has cores, and every test running at the same time, and the code they test, shares it. Spawn a
/// child process with ``ChildProcess``, which waits for it with `waitpid`, not with Foundation's `Process`.
/// - Parameter body: The blocking work.
/// - Returns: What `body` returned.
/// - Throws: What `body` threw.
public func offThePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = "test set-up"
        thread.start()
    }
}
