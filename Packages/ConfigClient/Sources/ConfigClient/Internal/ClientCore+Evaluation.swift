@_spi(Internal) @_spi(Locking) internal import ConfigModel
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

/// What an evaluation of a config the client holds takes from the state, under its stripe's lock.
private struct HeldConfigRead {
    /// The served text as the type's kind reads it.
    var readable: ConfigState.ReadableText
    /// Whether the evaluation was counted in the telemetry cache, like the previous evaluation of
    /// the key on this stripe.
    var isCounted: Bool
    /// Where the config is in the table, and which config it is.
    var entry: EvaluationTable.Entry
    var contextGeneration: UInt64
    var publishes: Bool
}

/// The config and the context of an evaluation, copied out of the state only when the evaluation is
/// published or was not counted: copying them retains objects that other threads share.
private struct HeldConfigCopy {
    var config: ConfigState
    var contextBox: ContextBox?
}

extension ClientCore {
    /// What evaluating `key` reads, taken under the calling thread's stripe of the state lock.
    func snapshot(for key: String) -> EvaluationSnapshot {
        state.read { state, _ in state.pointee.snapshot(for: key) }
    }

    /// Reads `key` as `Value` with the rules of PROTOCOL §8, counts the evaluation for telemetry and
    /// publishes it on `evaluations` when anyone listens.
    ///
    /// An evaluation of a held config like the previous one of its key on this thread's stripe is
    /// one stripe lock, one hash of the key and a count in the stripe's ``TelemetryCache``. The text
    /// is parsed after the lock is released, because types of the app parse with the app's code.
    func value<Value: ConfigValue>(for key: String, default defaultValue: Value) -> Value {
        var outcome: EvaluationOutcome?
        return value(for: key, default: defaultValue, keepsOutcome: false, outcome: &outcome)
    }

    /// ``value(for:default:)``, which also returns the evaluation's outcome, for the hooks' after
    /// stages: the same evaluation, telemetry and `evaluations` element.
    func evaluated<Value: ConfigValue>(for key: String, default defaultValue: Value) -> Evaluated<Value> {
        var outcome: EvaluationOutcome?
        let value = value(for: key, default: defaultValue, keepsOutcome: true, outcome: &outcome)
        // With `keepsOutcome`, every path sets `outcome`.
        return Evaluated(value: value, outcome: outcome ?? missing(key, snapshot: snapshot(for: key)))
    }

    /// The evaluation of ``value(for:default:)``; when `keepsOutcome` is `true` (a constant in each
    /// caller, so that the evaluation without it compiles as it did before), `outcome` is set.
    @inline(__always)
    private func value<Value: ConfigValue>(
        for key: String,
        default defaultValue: Value,
        keepsOutcome: Bool,
        outcome: inout EvaluationOutcome?
    ) -> Value {
        let kind = Value.configValueKind
        let defaultText = telemetry == nil ? nil : defaultValue.configValueText
        let now = telemetry?.coarseNow() ?? .distantPast
        let requestedType = ObjectIdentifier(Value.self)
        var copy: HeldConfigCopy?
        let lookup = state.read { state, cache -> HeldConfigRead? in
            guard !state.pointee.isClosed else { return nil }
            let contextGeneration = state.pointee.contextGeneration
            let publishes = state.pointee.publishesEvaluations
            return state.pointee.table.index._withUnsafeGuaranteedRef { index -> HeldConfigRead? in
                guard let entry = index.entry(for: key) else { return nil }
                let isCounted =
                    defaultText.map { defaultText in
                        let likeness = TelemetryCache.Likeness(
                            revision: entry.revision,
                            contextGeneration: contextGeneration,
                            requestedType: requestedType,
                            defaultValue: defaultText
                        )
                        return cache.count(slot: entry.slot, likeness, at: now)
                    } ?? false
                if publishes || (defaultText != nil && !isCounted) || keepsOutcome {
                    copy = HeldConfigCopy(config: index.values[entry.slot].state, contextBox: state.pointee.contextBox)
                }
                return HeldConfigRead(
                    readable: index.values.text(in: entry.slot, readableAs: kind),
                    isCounted: isCounted,
                    entry: entry,
                    contextGeneration: contextGeneration,
                    publishes: publishes
                )
            }
        }
        guard let lookup else {
            // A key the client does not hold: the slow path, which reads what it needs under the lock again
            // rather than copy it out on every evaluation.
            let missing = missing(key, snapshot: snapshot(for: key))
            report(
                missing, value: defaultValue, defaultText: defaultText ?? defaultValue.configValueText,
                receivedText: nil)
            if keepsOutcome { outcome = missing }
            return defaultValue
        }
        var value = defaultValue
        let reason = Self.read(lookup.readable, kind: kind, into: &value)
        if let defaultText, !lookup.isCounted, let copy {
            let likeness = TelemetryCache.Likeness(
                revision: lookup.entry.revision,
                contextGeneration: lookup.contextGeneration,
                requestedType: requestedType,
                defaultValue: defaultText
            )
            cacheTelemetry(
                key: key, copy: copy, slot: lookup.entry.slot, likeness: likeness, reason: reason,
                receivedText: reason == .foundMatch ? value.configValueText : nil, requestedType: Value.self, at: now)
        }
        if lookup.publishes, let copy {
            publish(
                EvaluationOutcome(
                    key: key, reason: reason, state: copy.config, contextBox: copy.contextBox, publishes: true),
                value: value
            )
        }
        if keepsOutcome, let copy {
            outcome = EvaluationOutcome(
                key: key, reason: reason, state: copy.config, contextBox: copy.contextBox, publishes: lookup.publishes)
        }
        return value
    }

    /// Counts an evaluation that the stripe's telemetry cache did not count, in its place in the
    /// cache, and hands the entries it replaced to the collector, a batch at a time.
    private func cacheTelemetry(
        key: String,
        copy: HeldConfigCopy,
        slot: Int,
        likeness: TelemetryCache.Likeness,
        reason: EvaluationReason,
        receivedText: String?,
        requestedType: any Any.Type,
        at now: Date
    ) {
        guard let telemetry else { return }
        let cached = TelemetryCache.Entry(
            likeness: likeness,
            requestedType: requestedType,
            key: key,
            variant: TelemetryCollector.variant(
                configType: copy.config.type,
                defaultValue: likeness.defaultValue,
                requestedType: likeness.requestedType,
                evaluatedValue: receivedText,
                serverValueID: copy.config.valueID,
                reason: reason,
                contextID: copy.contextBox?.context.id
            ),
            count: 1,
            firstTime: telemetry.now(),
            lastTime: now
        )
        let replaced = state.read { _, cache in cache.store(cached, in: slot) }
        if let replaced { telemetry.absorb(replaced) }
    }

    /// Reads readable text as `Value` into `value`, which holds the default value on entry and is
    /// left alone unless the text parses.
    /// - Returns: The reason of the evaluation.
    private static func read<Value: ConfigValue>(
        _ readable: ConfigState.ReadableText,
        kind: ConfigValueKind,
        into value: inout Value
    ) -> EvaluationReason {
        switch readable {
        case .unreadable(let reason):
            return reason
        case .text(let text):
            guard let parsed = Value(configValue: text) else { return kind.invalidValueReason }
            value = parsed
            return .foundMatch
        }
    }

    /// Reads `key` as `Value` with the rules of PROTOCOL §8, from a snapshot.
    func evaluate<Value: ConfigValue>(
        _ key: String,
        default defaultValue: Value,
        snapshot: EvaluationSnapshot
    ) -> Evaluated<Value> {
        guard let config = snapshot.state else {
            return Evaluated(value: defaultValue, outcome: missing(key, snapshot: snapshot))
        }
        var value = defaultValue
        let kind = Value.configValueKind
        let reason = Self.read(config.text(readableAs: kind), kind: kind, into: &value)
        return Evaluated(value: value, outcome: outcome(key, reason: reason, config: config, snapshot: snapshot))
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

    /// Records an evaluation of a config value for telemetry, with the text of the value the app
    /// received, and publishes it on `evaluations` when anyone listens.
    func report<Value: ConfigValue>(_ evaluated: Evaluated<Value>, defaultText: @autoclosure () -> String) {
        report(
            evaluated.outcome, value: evaluated.value, defaultText: defaultText(),
            receivedText: evaluated.value.configValueText)
    }

    /// Records an evaluation of a decoded JSON config for telemetry, with the served text (its value
    /// id is what is sent), and publishes it on `evaluations` when anyone listens.
    func reportJSON<Value: Sendable>(_ evaluated: Evaluated<Value>, defaultText: @autoclosure () -> String) {
        report(
            evaluated.outcome, value: evaluated.value, defaultText: defaultText(),
            receivedText: evaluated.outcome.state?.value)
    }

    /// Records an evaluation of `value` for telemetry and publishes it on `evaluations` when anyone listens.
    /// - Parameter receivedText: The text of the value the app received, when it was not the default.
    func report<Value: Sendable>(
        _ outcome: EvaluationOutcome,
        value: Value,
        defaultText: @autoclosure () -> String,
        receivedText: @autoclosure () -> String?
    ) {
        telemetry?.record(
            key: outcome.key,
            variant: TelemetryCollector.variant(
                configType: outcome.state?.type,
                defaultValue: defaultText(),
                requestedType: ObjectIdentifier(Value.self),
                evaluatedValue: outcome.reason == .foundMatch ? receivedText() : nil,
                serverValueID: outcome.state?.valueID,
                reason: outcome.reason,
                contextID: outcome.contextBox?.context.id
            ),
            requestedType: Value.self
        )
        publish(outcome, value: value)
    }

    /// Publishes an evaluation of `value` on `evaluations` when anyone listens.
    private func publish<Value: Sendable>(_ outcome: EvaluationOutcome, value: Value) {
        guard outcome.publishes else { return }
        evaluations.send(configEvaluation(outcome, value: value))
    }

    /// The evaluation `evaluations` publishes for an outcome and its value.
    func configEvaluation<Value: Sendable>(_ outcome: EvaluationOutcome, value: Value) -> ConfigEvaluation {
        let found = outcome.reason == .foundMatch
        return ConfigEvaluation(
            key: outcome.key,
            value: ConfigEvaluationValue(value),
            valueID: found ? outcome.state?.effectiveValueID : nil,
            isDefaultValue: !found,
            context: outcome.contextBox?.context,
            reason: outcome.reason
        )
    }
}
