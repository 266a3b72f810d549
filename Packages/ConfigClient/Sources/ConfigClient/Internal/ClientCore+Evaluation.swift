@_spi(Locking) internal import ConfigModel
internal import Foundation

/// An evaluation's result apart from its value: what telemetry and the `evaluations` stream are told.
///
/// It is not generic, so that evaluating a value of a type the client was not compiled for (every
/// call from an app) instantiates no generic type at run time.
struct EvaluationOutcome: Sendable {
    let key: String
    let reason: EvaluationReason
    /// The config the value was read from, or `nil` when the key is missing.
    let state: ConfigState?
    /// The context evaluated against, boxed.
    let contextBox: ContextBox?
    /// Whether the `evaluations` stream has subscribers.
    let publishes: Bool
}

extension ClientCore {
    /// What evaluating `key` reads, taken under the state lock and nothing else. A closed client
    /// holds nothing: its evaluations return their default values.
    func snapshot(for key: String) -> EvaluationSnapshot {
        state.withLock { state in
            guard !state.isClosed else {
                return EvaluationSnapshot(
                    state: nil, isReady: false, contextBox: state.contextBox, publishesEvaluations: false)
            }
            return state.snapshot(for: key)
        }
    }

    /// Reads `key` with the rules of PROTOCOL §8 into `value`, which holds the default value on entry
    /// and is left alone unless the config is read.
    func read<Value: ConfigValue>(_ key: String, snapshot: EvaluationSnapshot, into value: inout Value)
        -> EvaluationOutcome
    {
        guard let config = snapshot.state else { return missing(key, snapshot: snapshot) }
        let kind = Value.configValueKind
        let reason: EvaluationReason
        switch config.text(readableAs: kind) {
        case .unreadable(let unreadable):
            reason = unreadable
        case .text(let text):
            if let parsed = Value(configValue: text) {
                value = parsed
                reason = .foundMatch
            } else {
                reason = kind.invalidValueReason
            }
        }
        return outcome(key, reason: reason, config: config, snapshot: snapshot)
    }

    /// Reads `key` as `Value` with the rules of PROTOCOL §8.
    func evaluate<Value: ConfigValue>(
        _ key: String,
        default defaultValue: Value,
        snapshot: EvaluationSnapshot
    ) -> Evaluated<Value> {
        var value = defaultValue
        let outcome = read(key, snapshot: snapshot, into: &value)
        return Evaluated(value: value, outcome: outcome)
    }

    /// Decodes the JSON config `key` as `Value`.
    func evaluateJSON<Value: Decodable & Sendable>(
        _ key: String,
        as type: Value.Type,
        default defaultValue: Value,
        snapshot: EvaluationSnapshot
    ) -> Evaluated<Value> {
        guard let config = snapshot.state else {
            return Evaluated(value: defaultValue, outcome: missing(key, snapshot: snapshot))
        }
        let resolved = config.resolveJSON(as: type, decoder: JSONDecoder())
        return Evaluated(
            value: resolved.value ?? defaultValue,
            outcome: outcome(key, reason: resolved.reason, config: config, snapshot: snapshot)
        )
    }

    private func missing(_ key: String, snapshot: EvaluationSnapshot) -> EvaluationOutcome {
        EvaluationOutcome(
            key: key,
            reason: snapshot.isReady ? .configStateMissing : .clientNotReady,
            state: nil,
            contextBox: snapshot.contextBox,
            publishes: snapshot.publishesEvaluations
        )
    }

    private func outcome(
        _ key: String,
        reason: EvaluationReason,
        config: ConfigState,
        snapshot: EvaluationSnapshot
    ) -> EvaluationOutcome {
        EvaluationOutcome(
            key: key,
            reason: reason,
            state: config,
            contextBox: snapshot.contextBox,
            publishes: snapshot.publishesEvaluations
        )
    }

    /// Records an evaluation for telemetry and publishes it on `evaluations` when anyone listens.
    func report<Value: Sendable>(_ evaluated: Evaluated<Value>, defaultText: @autoclosure () -> String) {
        report(evaluated.outcome, value: evaluated.value, defaultText: defaultText())
    }

    /// Records an evaluation of `value` for telemetry and publishes it on `evaluations` when anyone listens.
    func report<Value: Sendable>(
        _ outcome: EvaluationOutcome,
        value: Value,
        defaultText: @autoclosure () -> String
    ) {
        let found = outcome.reason == .foundMatch
        telemetry?.record(
            key: outcome.key,
            configType: outcome.state?.type,
            defaultValue: defaultText(),
            requestedType: Value.self,
            evaluatedValue: found ? outcome.state?.value : nil,
            serverValueID: found ? outcome.state?.valueID : nil,
            reason: outcome.reason,
            contextID: outcome.contextBox?.context.id
        )
        guard outcome.publishes else { return }
        evaluations.send(
            ConfigEvaluation(
                key: outcome.key,
                value: ConfigEvaluationValue(value),
                valueID: found ? outcome.state?.effectiveValueID : nil,
                isDefaultValue: !found,
                context: outcome.contextBox?.context,
                reason: outcome.reason
            )
        )
    }
}
