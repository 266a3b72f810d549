/// A `values(for:)` stream's side inside the client, refreshed when its key changes.
protocol KeyWatcher: AnyObject, Sendable {
    /// Re-evaluates the key and yields the value when it differs from the last one yielded.
    /// Called only while the client's state lock is held, which orders every refresh.
    func refresh(_ snapshot: EvaluationSnapshot)

    /// Finishes the stream.
    func finish()
}

/// A watcher of values of one type: keeps the last value yielded so that equal values are not repeated.
final class Watcher<Value: Equatable & Sendable>: KeyWatcher, @unchecked Sendable {
    // `lastValue` is guarded by ClientCore.state's lock: `refresh` is only called while it is held.
    private var lastValue: Value?
    private let continuation: AsyncStream<Value>.Continuation
    private let evaluate: @Sendable (EvaluationSnapshot) -> Evaluated<Value>
    private let report: @Sendable (Evaluated<Value>) -> Void

    init(
        continuation: AsyncStream<Value>.Continuation,
        evaluate: @escaping @Sendable (EvaluationSnapshot) -> Evaluated<Value>,
        report: @escaping @Sendable (Evaluated<Value>) -> Void
    ) {
        self.continuation = continuation
        self.evaluate = evaluate
        self.report = report
    }

    func refresh(_ snapshot: EvaluationSnapshot) {
        let evaluated = evaluate(snapshot)
        guard evaluated.value != lastValue else { return }
        lastValue = evaluated.value
        report(evaluated)
        continuation.yield(evaluated.value)
    }

    func finish() {
        continuation.finish()
    }
}
