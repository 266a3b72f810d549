@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// A `values(for:)` stream's side inside the client, refreshed when its key changes.
protocol KeyWatcher: AnyObject, Sendable {
    /// Re-evaluates the key as the client holds it now and yields the value when it differs from
    /// the last one yielded.
    ///
    /// Called after the client's lock is released, since it runs the app's code; `number` orders
    /// the refreshes (see ``WatchRegistry``), and a refresh older than one already run is skipped.
    func refresh(number: UInt64)

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
    private let yield: @Sendable (Value) -> Void
    private let onFinish: @Sendable () -> Void
    private let evaluate: @Sendable () -> Evaluated<Value>
    private let report: @Sendable (Evaluated<Value>) -> Void

    /// A watcher that yields to a `values(for:)` stream and finishes it.
    convenience init(
        continuation: AsyncStream<Value>.Continuation,
        evaluate: @escaping @Sendable () -> Evaluated<Value>,
        report: @escaping @Sendable (Evaluated<Value>) -> Void
    ) {
        self.init(
            yield: { continuation.yield($0) }, onFinish: { continuation.finish() }, evaluate: evaluate, report: report)
    }

    /// A watcher that hands each new value to `yield`, under its own lock, in the order of its refreshes.
    init(
        yield: @escaping @Sendable (Value) -> Void,
        onFinish: @escaping @Sendable () -> Void,
        evaluate: @escaping @Sendable () -> Evaluated<Value>,
        report: @escaping @Sendable (Evaluated<Value>) -> Void
    ) {
        self.yield = yield
        self.onFinish = onFinish
        self.evaluate = evaluate
        self.report = report
    }

    /// The last value yielded, if any.
    var lastValue: Value? { last.withLock { $0.value } }

    func refresh(number: UInt64) {
        last.withLock { last in
            if let lastNumber = last.number, number <= lastNumber { return }
            last.number = number
            let evaluated = evaluate()
            guard evaluated.value != last.value else { return }
            last.value = evaluated.value
            report(evaluated)
            yield(evaluated.value)
        }
    }

    func finish() {
        onFinish()
    }
}
