internal import ConfigModel
internal import Foundation

extension ClientCore {
    /// What evaluating `key` reads, taken under the state lock and nothing else. A closed client
    /// holds nothing: its evaluations return their default values.
    func snapshot(for key: String) -> EvaluationSnapshot {
        state.withLock { state in
            guard !state.isClosed else { return EvaluationSnapshot(state: nil, isReady: false, context: state.context) }
            return EvaluationSnapshot(state: state.table[key], isReady: state.isReady, context: state.context)
        }
    }

    /// Reads `key` as `Value` with the rules of PROTOCOL §8.
    func evaluate<Value: ConfigValue>(
        _ key: String,
        default defaultValue: Value,
        snapshot: EvaluationSnapshot
    ) -> Evaluated<Value> {
        resolve(key, default: defaultValue, snapshot: snapshot) { $0.resolve(as: Value.self) }
    }

    /// Decodes the JSON config `key` as `Value`.
    func evaluateJSON<Value: Decodable & Sendable>(
        _ key: String,
        as type: Value.Type,
        default defaultValue: Value,
        snapshot: EvaluationSnapshot
    ) -> Evaluated<Value> {
        resolve(key, default: defaultValue, snapshot: snapshot) { $0.resolveJSON(as: type, decoder: JSONDecoder()) }
    }

    private func resolve<Value: Sendable>(
        _ key: String,
        default defaultValue: Value,
        snapshot: EvaluationSnapshot,
        with resolution: (ConfigState) -> ConfigResolution<Value>
    ) -> Evaluated<Value> {
        guard let config = snapshot.state else {
            let missing = ConfigResolution<Value>.missingConfig(isReady: snapshot.isReady)
            return Evaluated(key: key, value: defaultValue, reason: missing.reason, state: nil, context: snapshot.context)
        }
        let resolved = resolution(config)
        return Evaluated(
            key: key,
            value: resolved.value ?? defaultValue,
            reason: resolved.reason,
            state: config,
            context: snapshot.context
        )
    }

    /// Records an evaluation for telemetry and publishes it on `evaluations` when anyone listens.
    func report<Value: Sendable>(_ evaluated: Evaluated<Value>, defaultText: @autoclosure () -> String) {
        let found = evaluated.reason == .foundMatch
        telemetry?.record(
            key: evaluated.key,
            configType: evaluated.state?.type,
            defaultValue: defaultText(),
            requestedType: Value.self,
            evaluatedValue: found ? evaluated.state?.value : nil,
            serverValueID: found ? evaluated.state?.valueID : nil,
            reason: evaluated.reason,
            context: evaluated.context
        )
        guard evaluations.hasSubscribers else { return }
        evaluations.send(
            ConfigEvaluation(
                key: evaluated.key,
                value: ConfigEvaluationValue(evaluated.value),
                valueID: found ? evaluated.state?.effectiveValueID : nil,
                isDefaultValue: !found,
                context: evaluated.context,
                reason: evaluated.reason
            )
        )
    }
}
