@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// Runs the hooks of a client's options: before stages in registration order, after stages in
/// reverse, each hook's data carried from one to the other; a stage that throws is skipped, and each
/// hook's first throw is logged.
final class HookRunner: Sendable {
    private let hooks: [RegisteredHook]
    /// `hooks` unretained, which `hooks` keeps alive: a stage reads its hook through one with no retain.
    private let unretainedHooks: [Unmanaged<RegisteredHook>]
    private let logger: any ConfigDirectorLogger
    /// The indexes of the hooks whose throw was logged.
    private let logged = Locked(Set<Int>())

    /// The runner of `hooks`, or `nil` when there is none, so that evaluations without hooks skip it.
    init?(_ hooks: [any ConfigDirectorHook], logger: any ConfigDirectorLogger) {
        guard !hooks.isEmpty else { return nil }
        self.hooks = hooks.map(RegisteredHook.init)
        unretainedHooks = self.hooks.map(Unmanaged.passUnretained)
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
        // The hooks' data lives on the stack: an array of it cost an allocation per evaluation.
        withUnsafeTemporaryAllocation(of: ConfigDirectorHookData.self, capacity: hooks.count) { data in
            before(into: data) { hook, data in try hook.beforeEvaluation(context, data: data) }
            defer { data.deinitialize() }
            let evaluated = evaluate()
            let told = result(evaluated)
            after(UnsafeBufferPointer(data)) { hook, data in
                try hook.afterEvaluation(context, result: told, data: data)
            }
            return evaluated
        }
    }

    /// Runs the hooks around a call of `initialize` or `updateContext`.
    /// - Parameters:
    ///   - change: What the stages are told.
    ///   - connect: The call; it returns whether the client is ready afterwards.
    func contextChange(_ change: ContextChangeHookContext, _ connect: () async -> Bool) async {
        let data = [ConfigDirectorHookData](unsafeUninitializedCapacity: hooks.count) { data, count in
            before(into: data) { hook, data in try hook.beforeContextChange(change, data: data) }
            count = hooks.count
        }
        let isReady = await connect()
        data.withUnsafeBufferPointer { data in
            after(data) { hook, data in try hook.afterContextChange(change, isReady: isReady, data: data) }
        }
    }

    /// Runs each hook's before stage, in order, and initializes `data` with what each returned.
    private func before(
        into data: UnsafeMutableBufferPointer<ConfigDirectorHookData>,
        _ stage: (any ConfigDirectorHook, ConfigDirectorHookData) throws -> ConfigDirectorHookData
    ) {
        for index in hooks.indices {
            let returned: ConfigDirectorHookData
            do {
                returned = try unretainedHooks[index]._withUnsafeGuaranteedRef { try stage($0.hook, [:]) }
            } catch {
                logOnce(error, hook: index)
                returned = [:]
            }
            data.initializeElement(at: index, to: returned)
        }
    }

    /// Runs each hook's after stage, in reverse order, with the data its before stage returned.
    private func after(
        _ data: UnsafeBufferPointer<ConfigDirectorHookData>,
        _ stage: (any ConfigDirectorHook, ConfigDirectorHookData) throws -> Void
    ) {
        for index in hooks.indices.reversed() {
            do {
                try unretainedHooks[index]._withUnsafeGuaranteedRef { try stage($0.hook, data[index]) }
            } catch {
                logOnce(error, hook: index)
            }
        }
    }

    private func logOnce(_ error: any Error, hook index: Int) {
        guard logged.withLock({ $0.insert(index).inserted }) else { return }
        logger.error(
            "The hook '\(hooks[index].hook.name)' threw; the stage was skipped and the evaluation was not changed. "
                + "Later throws of this hook are not logged.",
            error: error
        )
    }
}

/// A hook of a ``HookRunner``, in an object of its own: a stage runs on the hook where the object holds it,
/// while one read out of an array is copied at each stage (one of more than 24 bytes, such as
/// `TracingHook`, by retaining its box).
private final class RegisteredHook: Sendable {
    let hook: any ConfigDirectorHook

    init(_ hook: any ConfigDirectorHook) { self.hook = hook }
}

extension ClientCore {
    /// Evaluates `key` with `evaluate`, a detail read or a hooked one (``EvaluationPurpose/evaluation``), and
    /// runs `hooks` around it.
    /// - Parameters:
    ///   - key: The config key.
    ///   - defaultValue: The default value given in code.
    ///   - requestedType: The type the app reads.
    ///   - hooks: The hooks.
    ///   - evaluationValue: What an evaluation reports of a value: the value, or the one a stand-in stands for.
    ///   - evaluate: The evaluation.
    /// - Returns: What `evaluate` returned.
    @discardableResult
    func hooked<Value: Sendable>(
        _ key: String,
        default defaultValue: Value,
        requestedType: any Any.Type,
        hooks: HookRunner,
        evaluationValue: (Value) -> ConfigEvaluationValue,
        evaluate: () -> (value: Value, parts: EvaluationParts)
    ) -> (value: Value, parts: EvaluationParts) {
        var value = defaultValue
        let context = hookContext(key, default: evaluationValue(defaultValue), requestedType: requestedType)
        let parts = hooks.evaluation(
            context,
            {
                let parts: EvaluationParts
                (value, parts) = evaluate()
                return parts
            },
            result: { parts in parts.evaluation(key: key, value: evaluationValue(value)) })
        return (value, parts)
    }

    /// ``hooked(_:default:requestedType:hooks:evaluationValue:evaluate:)`` of an evaluation made for a watcher
    /// (``EvaluationPurpose/watch``), whose after stages are told the evaluation it publishes.
    func hooked<Value: Sendable>(
        _ key: String,
        default defaultValue: Value,
        hooks: HookRunner,
        evaluate: () -> Evaluated<Value>
    ) -> Evaluated<Value> {
        hooks.evaluation(
            hookContext(key, default: ConfigEvaluationValue(defaultValue), requestedType: Value.self), evaluate
        ) { evaluated in configEvaluation(evaluated.outcome, value: evaluated.value) }
    }

    private func hookContext(
        _ key: String,
        default defaultValue: ConfigEvaluationValue,
        requestedType: any Any.Type
    ) -> EvaluationHookContext {
        EvaluationHookContext(key: key, requestedType: requestedType, context: context, defaultValue: defaultValue)
    }
}
