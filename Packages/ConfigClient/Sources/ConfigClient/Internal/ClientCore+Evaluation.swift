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
    /// Where the config is in the table and which config it is, or `nil` when the key is missing.
    let entry: EvaluationTable.Entry?
    /// The context generation evaluated against (see ``ClientState/contextGeneration``).
    let contextGeneration: UInt64
    /// Where the values evaluated came from, read under the same lock as the config.
    let source: ConfigValueSource
}

/// What an evaluation of a config the client holds takes from the state, under its stripe's lock.
private struct HeldConfigRead {
    /// The served text as the type's kind reads it; `nil` when the stripe kept the document decoded.
    var readable: ConfigState.ReadableText?
    /// The config's type, read for JSON documents alone (only `json` configs decode).
    var type: ConfigType
    /// Whether the evaluation was counted in the telemetry cache, like the previous evaluation of
    /// the key on this stripe.
    var isCounted: Bool
    /// Where the config is in the table, and which config it is.
    var entry: EvaluationTable.Entry
    var contextGeneration: UInt64
    var publishes: Bool
    var source: ConfigValueSource
}

/// The config and the context of an evaluation, copied out of the state only when the evaluation is
/// published, was not counted, or keeps its outcome: copying them retains objects that other threads share.
private struct HeldConfigCopy {
    var config: ConfigState
    var contextBox: ContextBox?
}

/// What an evaluation of a key the client does not hold (or of any key, once it is closed) takes
/// from the state.
private struct MissingKey {
    var isReady: Bool
    var publishes: Bool
    var contextBox: ContextBox?
    var contextGeneration: UInt64
    var source: ConfigValueSource

    /// What `state` tells: a closed client is not ready and publishes nothing.
    init(_ state: ClientState) {
        isReady = !state.isClosed && state.isReady
        publishes = !state.isClosed && state.publishesEvaluations
        contextBox = state.contextBox
        contextGeneration = state.contextGeneration
        source = state.source
    }
}

/// How an evaluation reads the served text: as a ``ConfigValue`` parses it, or as a JSON document
/// decoded, which each stripe keeps (see ``DecodedValues``).
private enum Reading {
    case parsed(ConfigValueKind)
    case json

    /// The kind that reads the text.
    var kind: ConfigValueKind {
        switch self {
        case .parsed(let kind): kind
        case .json: .string
        }
    }

    var decodesJSON: Bool {
        if case .json = self { return true }
        return false
    }
}

extension ClientCore {
    // MARK: - Evaluations

    /// Reads `key` as `Value` with the rules of PROTOCOL §8, counts the evaluation for telemetry and
    /// publishes it on `evaluations` when anyone listens.
    ///
    /// An evaluation of a held config like the previous one of its key on this thread's stripe is
    /// one stripe lock, one hash of the key and a count in the stripe's ``TelemetryCache``. The text
    /// is parsed after the lock is released, because types of the app parse with the app's code.
    func value<Value: ConfigValue>(for key: String, default defaultValue: Value) -> Value {
        var outcome: EvaluationOutcome?
        return evaluate(
            key, default: defaultValue, .parsed(Value.configValueKind), keepsOutcome: false, reports: true,
            outcome: &outcome, defaultText: { defaultValue.configValueText }, parse: Value.init(configValue:),
            receivedText: { value, _ in value.configValueText })
    }

    /// ``value(for:default:)``, which also returns the evaluation's outcome, for the hooks' after
    /// stages, the provider and the watchers.
    /// - Parameter reports: Whether the evaluation is counted and published now; `false` for a
    ///   watcher, which reports it with ``report(_:defaultText:)`` only when it yields the value.
    func evaluated<Value: ConfigValue>(
        for key: String,
        default defaultValue: Value,
        reports: Bool = true
    ) -> Evaluated<Value> {
        var outcome: EvaluationOutcome?
        let value = evaluate(
            key, default: defaultValue, .parsed(Value.configValueKind), keepsOutcome: true, reports: reports,
            outcome: &outcome, defaultText: { defaultValue.configValueText }, parse: Value.init(configValue:),
            receivedText: { value, _ in value.configValueText })
        return Evaluated(value: value, outcome: outcome ?? Self.lostOutcome(key))
    }

    /// Decodes the JSON config `key` as `Value`, counts the evaluation for telemetry and publishes it
    /// on `evaluations` when anyone listens: the same evaluation as ``value(for:default:)``, with the
    /// document decoded once per stripe and revision (see ``DecodedValues``).
    /// - Parameter defaultText: The default as telemetry reports it, when the caller has it; `nil`
    ///   describes the default once per default read (not on every evaluation).
    func value<Value: Decodable & Sendable>(
        forJSON key: String,
        default defaultValue: Value,
        defaultText: String? = nil
    ) -> Value {
        var outcome: EvaluationOutcome?
        return evaluate(
            key, default: defaultValue, .json, keepsOutcome: false, reports: true, outcome: &outcome,
            defaultText: { defaultText },
            parse: { text in try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) },
            receivedText: { _, served in served })
    }

    /// ``value(forJSON:default:defaultText:)``, which also returns the evaluation's outcome.
    /// - Parameter reports: As in ``evaluated(for:default:reports:)``.
    func evaluated<Value: Decodable & Sendable>(
        forJSON key: String,
        default defaultValue: Value,
        defaultText: String? = nil,
        reports: Bool = true
    ) -> Evaluated<Value> {
        var outcome: EvaluationOutcome?
        let value = evaluate(
            key, default: defaultValue, .json, keepsOutcome: true, reports: reports, outcome: &outcome,
            defaultText: { defaultText },
            parse: { text in try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) },
            receivedText: { _, served in served })
        return Evaluated(value: value, outcome: outcome ?? Self.lostOutcome(key))
    }

    /// Decodes the JSON config `key` as `Value`, whose `Decodable` conformance may be isolated to the
    /// caller's actor, on the caller's thread: the same evaluation as ``value(forJSON:default:defaultText:)``
    /// (counted, published, hooked) of an ``IsolatedJSONDocument``, which keeps the served document rather
    /// than the decoded value, so a read that the stripe already evaluated decodes the document again.
    func value<Value: Decodable>(forIsolatedJSON key: String, default defaultValue: Value, hooks: HookRunner?) -> Value
    {
        let description = String(describing: defaultValue)
        var decoded: Value?
        let parse = { (text: String) -> IsolatedJSONDocument<Value>? in
            guard let value = try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) else { return nil }
            decoded = value
            return IsolatedJSONDocument(text: text, description: description)
        }
        let placeholder = IsolatedJSONDocument<Value>(text: nil, description: description)
        let evaluation = { (keepsOutcome: Bool) -> Evaluated<IsolatedJSONDocument<Value>> in
            var outcome: EvaluationOutcome?
            let document = self.evaluate(
                key, default: placeholder, .json, keepsOutcome: keepsOutcome, reports: true, outcome: &outcome,
                defaultText: { description }, parse: parse, receivedText: { _, served in served })
            return Evaluated(value: document, outcome: outcome ?? Self.lostOutcome(key))
        }
        let document =
            if let hooks {
                hooked(
                    key, default: placeholder, requestedType: Value.self, evaluationValue: \.evaluationValue,
                    hooks: hooks
                ) { evaluation(true) }.value
            } else {
                evaluation(false).value
            }
        if let decoded { return decoded }
        guard let text = document.text else { return defaultValue }
        return (try? JSONDecoder().decode(Value.self, from: Data(text.utf8))) ?? defaultValue
    }

    /// The outcome of an evaluation that kept none, which `keepsOutcome` rules out.
    private static func lostOutcome(_ key: String) -> EvaluationOutcome {
        EvaluationOutcome(
            key: key, reason: .clientNotReady, state: nil, contextBox: nil, publishes: false, entry: nil,
            contextGeneration: 0, source: .none)
    }

    /// The one evaluation: reads `key` under the calling thread's stripe, then parses or decodes the
    /// text after the lock and, when `reports`, counts the evaluation (through the one telemetry
    /// intake, the stripe's ``TelemetryCache``) and publishes it. When `keepsOutcome` is `true` (a
    /// constant in each caller, so that the evaluation without it compiles without it), `outcome` is set.
    /// - Parameters:
    ///   - defaultText: The default's text for telemetry when it is cheap to make (a value's text,
    ///     or the text a caller gave); `nil` for a JSON default, which is described once per default
    ///     and kept with the decode.
    ///   - parse: Reads the served text as `Value`.
    ///   - receivedText: The text telemetry reports of a value served, given the value and the served text.
    @inline(__always)
    private func evaluate<Value: Sendable>(
        _ key: String,
        default defaultValue: Value,
        _ reading: Reading,
        keepsOutcome: Bool,
        reports: Bool,
        outcome: inout EvaluationOutcome?,
        defaultText cheapDefaultText: () -> String?,
        parse: (String) -> Value?,
        receivedText: (Value, String?) -> String?
    ) -> Value {
        let counts = reports && telemetry != nil
        var defaultText: String? = counts ? cheapDefaultText() : nil
        let now = counts ? telemetry?.coarseNow() ?? .distantPast : .distantPast
        let requestedType = ObjectIdentifier(Value.self)
        // Set under the lock only on the paths that need them, so that the steady state copies none.
        var copy: HeldConfigCopy?
        var kept: DecodedValues.Kept?
        let lookup = state.read { state, stripe -> HeldConfigRead? in
            guard !state.pointee.isClosed else { return nil }
            let contextGeneration = state.pointee.contextGeneration
            let publishes = state.pointee.publishesEvaluations
            let source = state.pointee.source
            return state.pointee.table.unretained.read { index -> HeldConfigRead? in
                guard let entry = index.entry(for: key) else { return nil }
                if reading.decodesJSON {
                    kept = stripe.decoded.find(slot: entry.slot, revision: entry.revision, requestedType: requestedType)
                    if counts, defaultText == nil, let kept, kept.defaultText != nil, kept.holdsDefault(defaultValue) {
                        defaultText = kept.defaultText
                    }
                }
                let isCounted =
                    defaultText.map { defaultText in
                        stripe.telemetry.count(
                            slot: entry.slot,
                            TelemetryCache.Likeness(
                                revision: entry.revision,
                                contextGeneration: contextGeneration,
                                requestedType: requestedType,
                                defaultValue: defaultText
                            ),
                            at: now
                        )
                    } ?? false
                if publishes || (counts && !isCounted) || keepsOutcome {
                    copy = HeldConfigCopy(config: index.values[entry.slot].state, contextBox: state.pointee.contextBox)
                }
                return HeldConfigRead(
                    readable: kept == nil ? index.values.text(in: entry.slot, readableAs: reading.kind) : nil,
                    type: reading.decodesJSON ? index.values.type(in: entry.slot) : .string,
                    isCounted: isCounted,
                    entry: entry,
                    contextGeneration: contextGeneration,
                    publishes: publishes,
                    source: source
                )
            }
        }
        guard let held = lookup else {
            // A key the client does not hold: the slow path, which reads what it needs under the lock
            // again rather than copy it out on every evaluation.
            let missing = state.read { state, _ in MissingKey(state.pointee) }
            let evaluation = EvaluationOutcome(
                key: key, reason: missing.isReady ? .configStateMissing : .clientNotReady, state: nil,
                contextBox: missing.contextBox, publishes: missing.publishes, entry: nil,
                contextGeneration: missing.contextGeneration, source: missing.source)
            if reports {
                report(evaluation, value: defaultValue, defaultText: defaultText ?? String(describing: defaultValue))
            }
            if keepsOutcome { outcome = evaluation }
            return defaultValue
        }
        var value = defaultValue
        let reason: EvaluationReason
        if let kept {
            reason = kept.reason
            if let decoded = kept.decoded as? Value { value = decoded }
        } else {
            reason = Self.read(held.readable, type: held.type, reading, parse: parse, into: &value)
        }
        let keeps = reading.decodesJSON && (kept == nil || (counts && defaultText == nil))
        let needsCount = counts && !held.isCounted
        if keeps || needsCount {
            let text = counts ? defaultText ?? String(describing: defaultValue) : nil
            let decoded =
                keeps
                ? DecodedValues.Kept(
                    revision: held.entry.revision, decoded: reason == .foundMatch ? value : nil, reason: reason,
                    defaultValue: defaultValue, defaultText: text)
                : nil
            let cached =
                needsCount
                ? cacheEntry(
                    EvaluationOutcome(
                        key: key, reason: reason, state: copy?.config, contextBox: copy?.contextBox,
                        publishes: held.publishes, entry: held.entry, contextGeneration: held.contextGeneration,
                        source: held.source),
                    defaultText: text ?? "",
                    receivedText: reason == .foundMatch ? receivedText(value, copy?.config.value) : nil,
                    requestedType: Value.self, at: now)
                : nil
            let replaced = state.read { _, stripe -> TelemetryCache.HandOver? in
                if let decoded { stripe.decoded.keep(decoded, in: held.entry.slot) }
                guard let cached else { return nil }
                return stripe.telemetry.store(cached, in: held.entry.slot)
            }
            if let replaced, let telemetry { handOver(replaced, to: telemetry) }
        }
        if held.publishes || keepsOutcome, let copy {
            let evaluation = EvaluationOutcome(
                key: key, reason: reason, state: copy.config, contextBox: copy.contextBox,
                publishes: held.publishes, entry: held.entry, contextGeneration: held.contextGeneration,
                source: held.source)
            if reports { publish(evaluation, value: value) }
            if keepsOutcome { outcome = evaluation }
        }
        return value
    }

    /// Reads readable text as `Value` into `value`, which holds the default value on entry and is
    /// left alone unless the text parses (or decodes).
    /// - Returns: The reason of the evaluation.
    @inline(__always)
    private static func read<Value>(
        _ readable: ConfigState.ReadableText?,
        type: ConfigType,
        _ reading: Reading,
        parse: (String) -> Value?,
        into value: inout Value
    ) -> EvaluationReason {
        switch readable {
        case .unreadable(let reason):
            return reason
        case nil:
            return .valueMissing
        case .text(let text):
            switch reading {
            case .json:
                // Only `json` configs decode (PROTOCOL §8).
                guard type == .json else { return .typeMismatch }
                guard let decoded = parse(text) else { return .invalidJSON }
                value = decoded
            case .parsed(let kind):
                guard let parsed = parse(text) else { return kind.invalidValueReason }
                value = parsed
            }
            return .foundMatch
        }
    }

    // MARK: - Telemetry and the evaluations stream

    /// Counts an evaluation for telemetry and publishes it on `evaluations` when anyone listens: for
    /// an evaluation made with `reports: false` (a watcher's, once it yields the value).
    /// - Parameters:
    ///   - defaultText: The default as telemetry reports it.
    ///   - receivedText: The text of the value the app received, when it was served.
    func report<Value: Sendable>(
        _ outcome: EvaluationOutcome,
        value: Value,
        defaultText: @autoclosure () -> String,
        receivedText: @autoclosure () -> String? = nil
    ) {
        if let telemetry {
            let now = telemetry.coarseNow()
            let cached = cacheEntry(
                outcome, defaultText: defaultText(),
                receivedText: outcome.reason == .foundMatch ? receivedText() : nil, requestedType: Value.self, at: now)
            if let entry = outcome.entry {
                // A config the client holds: counted in the stripe's cache like every evaluation of one.
                let replaced = state.read { _, stripe -> TelemetryCache.HandOver? in
                    if stripe.telemetry.count(slot: entry.slot, cached.likeness, at: now) { return nil }
                    return stripe.telemetry.store(cached, in: entry.slot)
                }
                if let replaced { handOver(replaced, to: telemetry) }
            } else {
                // A key the client does not hold has no slot: the evaluation goes to the collector alone.
                telemetry.absorb(cached)
            }
        }
        publish(outcome, value: value)
    }

    /// The telemetry cache entry of one evaluation.
    private func cacheEntry(
        _ outcome: EvaluationOutcome,
        defaultText: String,
        receivedText: String?,
        requestedType: any Any.Type,
        at now: Date
    ) -> TelemetryCache.Entry {
        let likeness = TelemetryCache.Likeness(
            revision: outcome.entry?.revision ?? 0,
            contextGeneration: outcome.contextGeneration,
            requestedType: ObjectIdentifier(requestedType),
            defaultValue: defaultText
        )
        return TelemetryCache.Entry(
            likeness: likeness,
            requestedType: requestedType,
            key: outcome.key,
            variant: TelemetryCollector.variant(
                configType: outcome.state?.type,
                defaultValue: defaultText,
                requestedType: likeness.requestedType,
                evaluatedValue: receivedText,
                serverValueID: outcome.state?.valueID,
                reason: outcome.reason,
                contextID: outcome.contextBox?.context.id
            ),
            count: 1,
            firstTime: telemetry?.now() ?? now,
            lastTime: now
        )
    }

    /// Hands entries a stripe's cache replaced to the collector. While another thread hands its own
    /// over, they go back to the stripe for a later hand-over (the oldest dropped and counted past
    /// ``TelemetryCache/waitingLimit``), so that an evaluation never queues on the collector's lock:
    /// after a large apply every thread replaces entries at once, and one preempted while it held that
    /// lock stalled the others for milliseconds (benchmark 11).
    private func handOver(_ replaced: TelemetryCache.HandOver, to telemetry: TelemetryCollector) {
        guard !telemetry.absorbIfIdle(replaced) else { return }
        state.read { _, stripe in stripe.telemetry.giveBack(replaced) }
    }

    /// Publishes an evaluation of `value` on `evaluations` when anyone listens.
    private func publish<Value: Sendable>(_ outcome: EvaluationOutcome, value: Value) {
        guard outcome.publishes else { return }
        // A stand-in is published as the value it stands for; the cast runs only while anyone listens.
        let published = (value as? any StandInValue)?.evaluationValue ?? ConfigEvaluationValue(value)
        evaluations.send(configEvaluation(outcome, value: published))
    }

    /// The evaluation `evaluations` publishes for an outcome and its value.
    func configEvaluation<Value: Sendable>(_ outcome: EvaluationOutcome, value: Value) -> ConfigEvaluation {
        configEvaluation(outcome, value: ConfigEvaluationValue(value))
    }

    /// The evaluation `evaluations` publishes for an outcome and its value, boxed.
    func configEvaluation(_ outcome: EvaluationOutcome, value: ConfigEvaluationValue) -> ConfigEvaluation {
        let found = outcome.reason == .foundMatch
        return ConfigEvaluation(
            key: outcome.key,
            value: value,
            valueID: found ? outcome.state?.effectiveValueID : nil,
            isDefaultValue: !found,
            context: outcome.contextBox?.context,
            reason: outcome.reason
        )
    }
}
