@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// A `values(for:)` stream's side inside the client, refreshed when its key changes.
protocol KeyWatcher: AnyObject, Sendable {
    /// Re-evaluates the key and yields the value when it differs from the last one yielded.
    ///
    /// Called after the client's lock is released, since it runs the app's code; `number` orders
    /// the refreshes (see ``WatchRegistry``), and a refresh older than one already run is skipped.
    func refresh(_ snapshot: EvaluationSnapshot, number: UInt64)

    /// Finishes the stream.
    func finish()
}

/// A watcher of values of one type: keeps the last value yielded so that equal values are not repeated.
final class Watcher<Value: Equatable & Sendable>: KeyWatcher, Sendable {
    /// The number of the last refresh run and the last value yielded, guarded by the watcher's own
    /// lock, which also orders its refreshes.
    private struct Last {
        var number: UInt64?
        var value: Value?
    }

    private let last = Locked(Last())
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

    func refresh(_ snapshot: EvaluationSnapshot, number: UInt64) {
        last.withLock { last in
            if let lastNumber = last.number, number <= lastNumber { return }
            last.number = number
            let evaluated = evaluate(snapshot)
            guard evaluated.value != last.value else { return }
            last.value = evaluated.value
            report(evaluated)
            continuation.yield(evaluated.value)
        }
    }

    func finish() {
        continuation.finish()
    }
}
