@_spi(Internal) public import ConfigModel

extension ConfigDirectorClient {
    /// A stream of a config's value: the current value at once, then each time it changes.
    ///
    /// Consecutive equal values are not repeated, and the stream keeps only the newest value its
    /// consumer has not read. When a full payload drops the config, the stream yields `defaultValue`.
    /// Cancelling the consuming task stops watching; closing the client finishes the stream, and a
    /// stream made after ``close()`` finishes without yielding anything.
    ///
    /// ```swift
    /// for await darkMode in client.values(for: "dark-mode", default: false) {
    ///     isOn = darkMode
    /// }
    /// ```
    /// - Parameters:
    ///   - key: The config key.
    ///   - defaultValue: The value yielded when the config cannot be served; it sets the type read.
    /// - Returns: A stream of the evaluated value.
    public func values<Value: ConfigValue & Equatable>(
        for key: String,
        default defaultValue: Value
    ) -> AsyncStream<Value> {
        watch(key, watchedEvaluation(of: key, default: defaultValue))
    }

    /// A stream of a JSON config decoded as `type`: the current value at once, then each time it changes.
    /// - Parameters:
    ///   - key: The config key.
    ///   - type: The `Decodable` type; `Equatable` tells the stream when the value changed.
    ///   - defaultValue: The value yielded when the config is missing, not JSON, or does not decode.
    /// - Returns: A stream of the decoded value.
    public func values<Value: Decodable & Equatable & Sendable>(
        for key: String,
        as type: Value.Type,
        default defaultValue: Value
    ) -> AsyncStream<Value> {
        watch(key, watchedEvaluation(of: key, as: type, default: defaultValue))
    }

    /// How a watcher of `key` read as `Value` evaluates and reports.
    func watchedEvaluation<Value: ConfigValue>(of key: String, default defaultValue: Value) -> WatchedEvaluation<Value>
    {
        WatchedEvaluation(
            key: key,
            default: defaultValue,
            core: core,
            hooks: hooks,
            evaluate: { [core] in core.evaluated(for: key, default: defaultValue, purpose: .watch) },
            report: { [core] evaluated in
                core.report(
                    evaluated.outcome, value: evaluated.value, defaultText: defaultValue.configValueText,
                    receivedText: evaluated.value.configValueText)
            }
        )
    }

    /// How a watcher of the JSON config `key` decoded as `type` evaluates and reports.
    func watchedEvaluation<Value: Decodable & Equatable & Sendable>(
        of key: String,
        as type: Value.Type,
        default defaultValue: Value
    ) -> WatchedEvaluation<Value> {
        WatchedEvaluation(
            key: key,
            default: defaultValue,
            core: core,
            hooks: hooks,
            evaluate: { [core] in core.evaluated(forJSON: key, default: defaultValue, purpose: .watch) },
            report: { [core] evaluated in
                core.report(
                    evaluated.outcome, value: evaluated.value, defaultText: String(describing: defaultValue),
                    receivedText: evaluated.outcome.state?.value)
            }
        )
    }

    private func watch<Value: Equatable & Sendable>(
        _ key: String,
        _ evaluation: WatchedEvaluation<Value>
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let watcher = Watcher(continuation: continuation, evaluate: evaluation.evaluate, report: evaluation.report)
        let id = core.makeWatcherID()
        continuation.onTermination = { [weak core] _ in core?.removeWatcher(id, for: key) }
        // A closed client's stream finishes without yielding anything.
        if !core.addWatcher(watcher, id: id, for: key) { watcher.finish() }
        return stream
    }
}

/// How a watcher of one key evaluates the key, with the client's hooks around it, and reports each
/// value it yields.
struct WatchedEvaluation<Value: Equatable & Sendable>: Sendable {
    let evaluate: @Sendable () -> Evaluated<Value>
    let report: @Sendable (Evaluated<Value>) -> Void

    init(
        key: String,
        default defaultValue: Value,
        core: ClientCore,
        hooks: HookRunner?,
        evaluate: @escaping @Sendable () -> Evaluated<Value>,
        report: @escaping @Sendable (Evaluated<Value>) -> Void
    ) {
        self.report = report
        guard let hooks else {
            self.evaluate = evaluate
            return
        }
        self.evaluate = { [core] in core.hooked(key, default: defaultValue, hooks: hooks, evaluate: evaluate) }
    }
}
