/// A gate that tasks wait at until the test opens it, once: for an operation held at a known point.
/// - Returns: `wait`, which suspends until the gate is open (at once after), and `open`.
public func gate() -> (wait: @Sendable () async -> Void, open: @Sendable () -> Void) {
    let (stream, continuation) = AsyncStream.makeStream(of: Never.self)
    return ({ for await _ in stream {} }, { continuation.finish() })
}
