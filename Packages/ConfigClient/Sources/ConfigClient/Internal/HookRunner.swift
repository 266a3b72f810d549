@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// Runs the hooks of a client's options: before stages in registration order, after stages in
/// reverse, each hook's data carried from one to the other; a stage that throws is skipped, and each
/// hook's first throw is logged.
final class HookRunner: Sendable {
    private let hooks: [any ConfigDirectorHook]
    private let logger: any ConfigDirectorLogger
    /// The indexes of the hooks whose throw was logged.
    private let logged = Locked(Set<Int>())

    /// The runner of `hooks`, or `nil` when there is none, so that evaluations without hooks skip it.
    init?(_ hooks: [any ConfigDirectorHook], logger: any ConfigDirectorLogger) {
        guard !hooks.isEmpty else { return nil }
        self.hooks = hooks
        self.logger = logger
    }

    /// Runs the hooks around an evaluation.
    /// - Parameters:
    ///   - context: What the before stages are told.
    ///   - evaluate: The evaluation.
    ///   - result: What the after stages are told of the evaluation.
    /// - Returns: What `evaluate` returned.
    func evaluation<Result>(
        _ context: EvaluationHookContext,
        _ evaluate: () -> Result,
        result: (Result) -> ConfigEvaluation
    ) -> Result {
        let data = before { hook, data in try hook.beforeEvaluation(context, data: data) }
        let evaluated = evaluate()
        let told = result(evaluated)
        after(data) { hook, data in try hook.afterEvaluation(context, result: told, data: data) }
        return evaluated
    }

    /// Runs the hooks around a call of `initialize` or `updateContext`.
    /// - Parameters:
    ///   - change: What the stages are told.
    ///   - connect: The call; it returns whether the client is ready afterwards.
    func contextChange(_ change: ContextChangeHookContext, _ connect: () async -> Bool) async {
        let data = before { hook, data in try hook.beforeContextChange(change, data: data) }
        let isReady = await connect()
        after(data) { hook, data in try hook.afterContextChange(change, isReady: isReady, data: data) }
    }

    private func before(
        _ stage: (any ConfigDirectorHook, ConfigDirectorHookData) throws -> ConfigDirectorHookData
    ) -> [ConfigDirectorHookData] {
        hooks.indices.map { index in
            do {
                return try stage(hooks[index], [:])
            } catch {
                logOnce(error, hook: index)
                return [:]
            }
        }
    }

    private func after(
        _ data: [ConfigDirectorHookData],
        _ stage: (any ConfigDirectorHook, ConfigDirectorHookData) throws -> Void
    ) {
        for index in hooks.indices.reversed() {
            do {
                try stage(hooks[index], data[index])
            } catch {
                logOnce(error, hook: index)
            }
        }
    }

    private func logOnce(_ error: any Error, hook index: Int) {
        guard logged.withLock({ $0.insert(index).inserted }) else { return }
        logger.error(
            "The hook '\(hooks[index].name)' threw; the stage was skipped and the evaluation was not changed. "
                + "Later throws of this hook are not logged.",
            error: error
        )
    }
}

extension ClientCore {
    /// Evaluates `key` with `evaluate`, and runs `hooks` around it.
    /// - Parameters:
    ///   - key: The config key.
    ///   - defaultValue: The default value given in code.
    ///   - hooks: The hooks.
    ///   - evaluate: The evaluation.
    /// - Returns: What `evaluate` returned.
    func hooked<Value: Sendable>(
        _ key: String,
        default defaultValue: Value,
        hooks: HookRunner,
        evaluate: () -> Evaluated<Value>
    ) -> Evaluated<Value> {
        hooked(
            key, default: defaultValue, requestedType: Value.self, evaluationValue: { ConfigEvaluationValue($0) },
            hooks: hooks, evaluate: evaluate)
    }

    /// ``hooked(_:default:hooks:evaluate:)`` of a value that stands in for the app's (see
    /// ``IsolatedJSONDocument``): the hooks are told `requestedType`, and are given `evaluationValue` of the
    /// default and of the result.
    func hooked<Value: Sendable>(
        _ key: String,
        default defaultValue: Value,
        requestedType: any Any.Type,
        evaluationValue: (Value) -> ConfigEvaluationValue,
        hooks: HookRunner,
        evaluate: () -> Evaluated<Value>
    ) -> Evaluated<Value> {
        let context = EvaluationHookContext(
            key: key,
            requestedType: requestedType,
            context: context,
            defaultValue: evaluationValue(defaultValue)
        )
        return hooks.evaluation(
            context,
            evaluate,
            result: { evaluated in configEvaluation(evaluated.outcome, value: evaluationValue(evaluated.value)) }
        )
    }
}
