@_spi(Internal) @_spi(Locking) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport
internal import Foundation

/// An evaluation's result apart from its value: what telemetry, the hooks and the `evaluations`
/// stream are told.
///
/// It is not generic, so that evaluating a value of a type the client was not compiled for (every
/// call from an app) instantiates no generic type at run time.
struct EvaluationOutcome: Sendable {
    let key: String
    let reason: EvaluationReason
    /// The config the value was read from, or `nil` when the key is missing.
    let state: ConfigState?
    /// The context evaluated against.
    let context: ConfigDirectorContext?
    /// Whether the `evaluations` stream has subscribers.
    let publishes: Bool
    /// Where the config is in the table and which config it is, or `nil` when the key is missing.
    let entry: EvaluationTable.Entry?
    /// The context generation evaluated against (see ``ClientState/contextGeneration``).
    let contextGeneration: UInt64
    /// Where the values evaluated came from, read under the same lock as the config.
    let source: ConfigValueSource
}

/// What a caller needs of an evaluation.
enum EvaluationPurpose {
    /// The value alone: the evaluation is counted and published now, and keeps no outcome.
    case value
    /// The value and its outcome, for the provider's resolution: counted and published now.
    case detail
    /// The value and its outcome, for a watcher: counted and published with ``ClientCore/report(_:value:defaultText:receivedText:)``
    /// only when the watcher yields the value.
    case watch
    /// The value and its ``ConfigEvaluation``, for a detail read and a hooked one: counted and published now. The first
    /// phase copies the value id and the context for it, not the config.
    case evaluation

    var reports: Bool { self != .watch }
    var keepsOutcome: Bool { self == .detail || self == .watch }
}

/// How an evaluation reads the served text: as a ``ConfigValue`` parses it, or as a JSON document
/// decoded, which each stripe keeps (see ``DecodedValues``).
enum Reading {
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

/// What an evaluation takes from the state under its stripe's lock (its first phase), for the
/// phases after the lock.
///
/// The config and the context are copied out only when the evaluation is published, was not counted,
/// or keeps its outcome: copying them retains objects that other threads share.
private struct EvaluationLookup {
    /// Where the config is and which config it is; `nil` when the client holds none for the key.
    var entry: EvaluationTable.Entry?
    /// The served text as the type's kind reads it; `nil` when the stripe kept the document decoded.
    var readable: ConfigState.ReadableText?
    /// The config's type, read for JSON documents alone (only `json` configs decode).
    var type = ConfigType.string
    /// The decode of this revision as this type that the stripe kept (JSON reads alone).
    var kept: DecodedValues.Kept?
    /// The default's text for telemetry: the caller's, or the one the kept decode was read with.
    var defaultText: String?
    /// Whether telemetry counts the evaluation now: it reports now, telemetry is on, the client is open.
    var isCounting = false
    /// Whether the evaluation was counted in the stripe's telemetry cache.
    var isCounted = false
    var isReady = false
    var publishes = false
    var contextGeneration: UInt64 = 0
    var source = ConfigValueSource.none
    var config: ConfigState?
    var context: ConfigDirectorContext?
    /// The value id the server sent with the config, or the one the stripe computed of it, for a detail read.
    var valueID: String?
}

extension EvaluationOutcome {
    /// The outcome of an evaluation that read `lookup` and gave `reason`.
    fileprivate init(key: String, reason: EvaluationReason, _ lookup: EvaluationLookup) {
        self.init(
            key: key, reason: reason, state: lookup.config, context: lookup.context,
            publishes: lookup.publishes, entry: lookup.entry, contextGeneration: lookup.contextGeneration,
            source: lookup.source)
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
    /// - Parameter parse: Parses the served text into the value: ``ConfigValue/parse(_:into:)`` made for
    ///   the app's type by the public reads, which are inlined into the app (made here, for every type, it
    ///   would look up `Value?` at run time).
    func value<Value: ConfigValue>(
        for key: String,
        default defaultValue: Value,
        parsing parse: (String, inout Value) -> Bool
    ) -> Value {
        evaluate(
            key, default: defaultValue, .parsed(Value.configValueKind), .value,
            defaultText: { defaultValue.configValueText }, parse: parse,
            receivedText: { value, _ in value.configValueText }, result: { _, _ in }
        ).value
    }

    /// ``value(for:default:)``, which also returns the evaluation's outcome.
    /// - Parameter purpose: ``EvaluationPurpose/detail``, or ``EvaluationPurpose/watch`` for a watcher.
    func evaluated<Value: ConfigValue>(
        for key: String,
        default defaultValue: Value,
        purpose: EvaluationPurpose = .detail
    ) -> Evaluated<Value> {
        let (value, outcome) = evaluate(
            key, default: defaultValue, .parsed(Value.configValueKind), purpose,
            defaultText: { defaultValue.configValueText }, parse: Value.parse(_:into:),
            receivedText: { value, _ in value.configValueText },
            result: { reason, lookup in EvaluationOutcome(key: key, reason: reason, lookup) })
        return Evaluated(value: value, outcome: outcome)
    }

    /// ``value(for:default:)``, which also returns the evaluation that ``ConfigDirectorClient/evaluations``
    /// publishes but its key and value: what the detail read returns and, with them, the hooks' after stages
    /// are told. It makes no generic type at run time that `value(for:default:)` does not.
    /// - Parameter parse: As in ``value(for:default:parsing:)``.
    /// - Returns: The value read and the parts of its evaluation.
    func evaluation<Value: ConfigValue>(
        for key: String,
        default defaultValue: Value,
        parsing parse: (String, inout Value) -> Bool
    ) -> (value: Value, parts: EvaluationParts) {
        evaluation(
            key, default: defaultValue, .parsed(Value.configValueKind), defaultText: { defaultValue.configValueText },
            parse: parse, receivedText: { value, _ in value.configValueText })
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
        evaluate(
            key, default: defaultValue, .json, .value, defaultText: { defaultText }, parse: Self.decode,
            receivedText: { _, served in served }, result: { _, _ in }
        ).value
    }

    /// ``value(forJSON:default:defaultText:)``, which also returns the evaluation's outcome.
    /// - Parameter purpose: As in ``evaluated(for:default:purpose:)``.
    func evaluated<Value: Decodable & Sendable>(
        forJSON key: String,
        default defaultValue: Value,
        defaultText: String? = nil,
        purpose: EvaluationPurpose = .detail
    ) -> Evaluated<Value> {
        let (value, outcome) = evaluate(
            key, default: defaultValue, .json, purpose, defaultText: { defaultText }, parse: Self.decode,
            receivedText: { _, served in served },
            result: { reason, lookup in EvaluationOutcome(key: key, reason: reason, lookup) })
        return Evaluated(value: value, outcome: outcome)
    }

    /// ``value(forJSON:default:defaultText:)``, which also returns the parts of its evaluation, as
    /// ``evaluation(for:default:parsing:)`` does.
    /// - Returns: The value read and the parts of its evaluation.
    func evaluation<Value: Decodable & Sendable>(
        forJSON key: String,
        default defaultValue: Value
    ) -> (value: Value, parts: EvaluationParts) {
        evaluation(
            key, default: defaultValue, .json, defaultText: { nil }, parse: Self.decode,
            receivedText: { _, served in served })
    }

    /// Decodes the JSON config `key` as `Value`, whose `Decodable` conformance may be isolated to the
    /// caller's actor, on the caller's thread: the same evaluation as ``value(forJSON:default:defaultText:)``
    /// (counted, published, hooked) of an ``IsolatedJSONDocument``, which keeps the served document rather
    /// than the decoded value, so a read that the stripe already evaluated decodes the document again.
    func value<Value: Decodable>(forIsolatedJSON key: String, default defaultValue: Value, hooks: HookRunner?) -> Value
    {
        let description = String(describing: defaultValue)
        var decoded: Value?
        let parse = { (text: String, document: inout IsolatedJSONDocument<Value>) -> Bool in
            guard let value = try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) else { return false }
            decoded = value
            document = IsolatedJSONDocument(text: text, description: description)
            return true
        }
        let placeholder = IsolatedJSONDocument<Value>(text: nil, description: description)
        let document =
            if let hooks {
                hooked(
                    key, default: placeholder, requestedType: Value.self, hooks: hooks,
                    evaluationValue: \.evaluationValue,
                    evaluate: {
                        evaluation(
                            key, default: placeholder, .json, defaultText: { description }, parse: parse,
                            receivedText: { _, served in served })
                    }
                ).value
            } else {
                evaluate(
                    key, default: placeholder, .json, .value, defaultText: { description }, parse: parse,
                    receivedText: { _, served in served }, result: { _, _ in }
                ).value
            }
        if let decoded { return decoded }
        guard let text = document.text else { return defaultValue }
        return (try? JSONDecoder().decode(Value.self, from: Data(text.utf8))) ?? defaultValue
    }

    private static func decode<Value: Decodable>(_ text: String, into value: inout Value) -> Bool {
        guard let decoded = try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) else { return false }
        value = decoded
        return true
    }

    /// The evaluation of a detail read or a hooked one (``EvaluationPurpose/evaluation``): the value, and
    /// the parts of the evaluation that `evaluations` publishes.
    @inline(__always)
    private func evaluation<Value: Sendable>(
        _ key: String,
        default defaultValue: Value,
        _ reading: Reading,
        defaultText: () -> String?,
        parse: (String, inout Value) -> Bool,
        receivedText: (Value, String?) -> String?
    ) -> (value: Value, parts: EvaluationParts) {
        evaluate(
            key, default: defaultValue, reading, .evaluation, defaultText: defaultText, parse: parse,
            receivedText: receivedText, result: { reason, lookup in evaluationParts(reason, &lookup) })
    }

    /// The one evaluation, in three phases: ``lookUp(_:_:default:defaultText:counting:_:)`` reads
    /// the config under the calling thread's stripe (and counts the evaluation there when it is like the
    /// last one of its key); ``interpret(_:_:default:parse:)`` parses or decodes the text after the lock;
    /// ``account(_:_:_:value:reason:default:counting:receivedText:)`` records what the first phase could
    /// not, under the stripe again. Then the evaluation is published when anyone listens.
    ///
    /// So an evaluation like the last of its key on its stripe takes the stripe once, and any other twice.
    /// - Parameters:
    ///   - purpose: What the caller needs (a constant in each caller, so that the evaluation without an
    ///     outcome compiles without it).
    ///   - defaultText: The default's text for telemetry when it is cheap to make (a value's text,
    ///     or the text a caller gave); `nil` for a JSON default, which is described once per default
    ///     and kept with the decode.
    ///   - parse: Reads the served text into the value, which it leaves alone when the text does not read.
    ///   - receivedText: The text telemetry reports of a value served, given the value and the served text.
    ///   - result: What the caller needs besides the value, of its reason and what the first phase read:
    ///     the outcome when `purpose` keeps one, or the parts of a `ConfigEvaluation`, moved out of it
    ///     in place (returning what it read would copy it).
    /// - Returns: The value, and the part of the evaluation `result` made.
    @inline(__always)
    private func evaluate<Value: Sendable, Result>(
        _ key: String,
        default defaultValue: Value,
        _ reading: Reading,
        _ purpose: EvaluationPurpose,
        defaultText: () -> String?,
        parse: (String, inout Value) -> Bool,
        receivedText: (Value, String?) -> String?,
        result: (EvaluationReason, inout EvaluationLookup) -> Result
    ) -> (value: Value, parts: Result) {
        let counting = purpose.reports && countsEvaluations ? dependencies.clock.coarseNow() : nil
        var lookup = lookUp(
            key, reading, default: defaultValue, defaultText: counting != nil ? defaultText() : nil,
            counting: counting, purpose)
        let (value, reason) = Self.interpret(lookup, reading, default: defaultValue, parse: parse)
        account(
            key, reading, lookup, value: value, reason: reason, default: defaultValue, counting: counting,
            receivedText: receivedText)
        if purpose.reports, lookup.publishes {
            publish(EvaluationOutcome(key: key, reason: reason, lookup), value: value)
        }
        return (value, result(reason, &lookup))
    }

    /// The first phase: reads what the evaluation needs under the calling thread's stripe, and counts
    /// it in the stripe's telemetry cache when it is like the last evaluation of its key there.
    /// - Parameters:
    ///   - defaultText: The default's text for telemetry, when the caller made it.
    ///   - counting: The time of the evaluation when telemetry counts it; `nil` when it is not counted now.
    ///   - purpose: What the caller needs: the config and the context are copied out when it keeps the
    ///     outcome, the value id and the context when it makes a ``ConfigEvaluation`` (a context is one
    ///     reference: copying it retains its storage alone).
    @inline(__always)
    private func lookUp<Value: Sendable>(
        _ key: String,
        _ reading: Reading,
        default defaultValue: Value,
        defaultText: String?,
        counting now: Date?,
        _ purpose: EvaluationPurpose
    ) -> EvaluationLookup {
        let copies = purpose.keepsOutcome
        return state.read { state, stripe -> EvaluationLookup in
            var lookup = EvaluationLookup(defaultText: defaultText)
            // A closed client is not ready, publishes nothing and counts nothing.
            guard !state.pointee.isClosed else { return lookup }
            lookup.isReady = state.pointee.isReady
            lookup.publishes = state.pointee.publishesEvaluations
            lookup.contextGeneration = state.pointee.contextGeneration
            lookup.source = state.pointee.source
            lookup.isCounting = now != nil
            state.pointee.table.unretained.read { index in
                guard let entry = index.entry(for: key) else { return }
                lookup.entry = entry
                // An override is not an evaluation of what the service served: telemetry does not count it.
                if entry.isOverride {
                    lookup.source = .override
                    lookup.isCounting = false
                }
                if reading.decodesJSON {
                    lookup.kept = stripe.decoded.find(
                        slot: entry.slot, revision: entry.revision, requestedType: ObjectIdentifier(Value.self))
                    if now != nil, lookup.defaultText == nil, let kept = lookup.kept, kept.holdsDefault(defaultValue) {
                        lookup.defaultText = kept.defaultText
                    }
                    lookup.type = index.values.type(in: entry.slot)
                }
                if let now, lookup.isCounting, let defaultText = lookup.defaultText {
                    lookup.isCounted = stripe.telemetry.count(
                        slot: entry.slot,
                        TelemetryCache.Likeness(
                            revision: entry.revision, contextGeneration: lookup.contextGeneration,
                            requestedType: ObjectIdentifier(Value.self), defaultValue: defaultText),
                        at: now)
                }
                if purpose == .evaluation {
                    lookup.valueID =
                        index.values.valueID(in: entry.slot)
                        ?? stripe.valueIDs.find(slot: entry.slot, revision: entry.revision)
                }
                // The text to parse, or to compute the value id of (a JSON document the stripe kept decoded).
                if lookup.kept == nil || (purpose == .evaluation && lookup.valueID == nil) {
                    lookup.readable = index.values.text(in: entry.slot, readableAs: reading.kind)
                }
                if copies || lookup.publishes || (lookup.isCounting && !lookup.isCounted) {
                    lookup.config = index.values[entry.slot].state
                }
            }
            if copies || purpose == .evaluation || lookup.publishes || (lookup.isCounting && !lookup.isCounted) {
                lookup.context = state.pointee.context
            }
            return lookup
        }
    }

    /// The second phase, after the lock: the value and the reason of the evaluation.
    @inline(__always)
    private static func interpret<Value>(
        _ lookup: EvaluationLookup,
        _ reading: Reading,
        default defaultValue: Value,
        parse: (String, inout Value) -> Bool
    ) -> (Value, EvaluationReason) {
        guard lookup.entry != nil else { return (defaultValue, lookup.isReady ? .configStateMissing : .clientNotReady) }
        // Only JSON reads keep decodes: a parsed read compiles without the cast, which looks up `Value?`
        // at run time.
        if reading.decodesJSON, let kept = lookup.kept {
            return ((kept.decoded as? Value) ?? defaultValue, kept.reason)
        }
        var value = defaultValue
        let reason = read(lookup.readable, type: lookup.type, reading, parse: parse, into: &value)
        return (value, reason)
    }

    /// The third phase: records under the stripe again what the first could not: the telemetry of an
    /// evaluation unlike the last of its key (or of a key the client does not hold), and the decode of
    /// a JSON document for the stripe to keep.
    /// - Parameter now: The time of the evaluation when telemetry counts it now.
    @inline(__always)
    private func account<Value: Sendable>(
        _ key: String,
        _ reading: Reading,
        _ lookup: EvaluationLookup,
        value: Value,
        reason: EvaluationReason,
        default defaultValue: Value,
        counting now: Date?,
        receivedText: (Value, String?) -> String?
    ) {
        let keepsDecode =
            reading.decodesJSON && lookup.entry != nil
            && (lookup.kept == nil || (lookup.isCounting && lookup.defaultText == nil))
        let counts = lookup.isCounting && !lookup.isCounted
        guard keepsDecode || counts else { return }
        // Made after the lock: describing a JSON default runs the app's code.
        let defaultText = lookup.isCounting ? lookup.defaultText ?? String(describing: defaultValue) : nil
        let kept =
            keepsDecode
            ? DecodedValues.Kept(
                revision: lookup.entry?.revision ?? 0, decoded: reason == .foundMatch ? value : nil, reason: reason,
                defaultValue: defaultValue, defaultText: defaultText)
            : nil
        let cached =
            if counts, let now, let defaultText {
                cacheEntry(
                    EvaluationOutcome(key: key, reason: reason, lookup), defaultText: defaultText,
                    receivedText: reason == .foundMatch ? receivedText(value, lookup.config?.value) : nil,
                    requestedType: Value.self, at: now)
            } else {
                TelemetryCache.Entry?.none
            }
        state.read { _, stripe in
            if let kept, let slot = lookup.entry?.slot { stripe.decoded.keep(kept, in: slot) }
            if let cached { stripe.telemetry.record(cached, in: lookup.entry?.slot) }
        }
    }

    /// Reads readable text as `Value` into `value`, which holds the default value on entry and is
    /// left alone unless the text parses (or decodes).
    ///
    /// The reason depends on the config's revision (its text and type), the requested type and nothing else,
    /// as the stripes' caches assume (the rule is written beside `EvaluationReason`): the telemetry cache counts
    /// a read like the last one of its key under that one's reason, and a kept decode carries its reason.
    /// - Returns: The reason of the evaluation.
    @inline(__always)
    private static func read<Value>(
        _ readable: ConfigState.ReadableText?,
        type: ConfigType,
        _ reading: Reading,
        parse: (String, inout Value) -> Bool,
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
                guard parse(text, &value) else { return .invalidJSON }
            case .parsed(let kind):
                guard parse(text, &value) else { return kind.invalidValueReason }
            }
            return .foundMatch
        }
    }

    // MARK: - Telemetry and the evaluations stream

    /// Counts an evaluation for telemetry and publishes it on `evaluations` when anyone listens: for
    /// an evaluation made for a watcher (``EvaluationPurpose/watch``), once it yields the value.
    /// - Parameters:
    ///   - defaultText: The default as telemetry reports it.
    ///   - receivedText: The text of the value the app received, when it was served.
    func report<Value: Sendable>(
        _ outcome: EvaluationOutcome,
        value: Value,
        defaultText: @autoclosure () -> String,
        receivedText: @autoclosure () -> String? = nil
    ) {
        // An override is not an evaluation of what the service served: telemetry does not count it.
        if let telemetry, outcome.entry?.isOverride != true {
            let now = telemetry.coarseNow()
            let cached = cacheEntry(
                outcome, defaultText: defaultText(),
                receivedText: outcome.reason == .foundMatch ? receivedText() : nil, requestedType: Value.self, at: now)
            state.read { _, stripe in
                // A config the client holds is counted in place like every evaluation of one.
                if let slot = outcome.entry?.slot,
                    stripe.telemetry.count(slot: slot, cached.likeness, at: now)
                {
                    return
                }
                stripe.telemetry.record(cached, in: outcome.entry?.slot)
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
        TelemetryCache.Entry(
            revision: outcome.entry?.revision ?? 0,
            contextGeneration: outcome.contextGeneration,
            key: outcome.key,
            variant: TelemetryAggregates.Variant(
                configType: outcome.state?.type,
                defaultValue: defaultText,
                requestedType: requestedType,
                evaluatedValue: receivedText,
                serverValueID: outcome.state?.valueID,
                reason: outcome.reason,
                contextID: outcome.context?.id
            ),
            count: 1,
            firstTime: telemetry?.now() ?? now,
            lastTime: now
        )
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

    /// The parts of the evaluation of a detail read (``EvaluationPurpose/evaluation``) from what its first
    /// phase copied, which it moves the value id and the context out of rather than copy them again.
    @inline(__always)
    private func evaluationParts(_ reason: EvaluationReason, _ lookup: inout EvaluationLookup) -> EvaluationParts {
        let context = lookup.context.take()
        return Self.evaluationParts(
            reason, valueID: { lookup.valueID.take() ?? computedValueID(lookup) }, context: context,
            source: lookup.source)
    }

    /// The value id of PROTOCOL §7 of a config served without one, for a detail read that found no id
    /// in its stripe.
    private func computedValueID(_ lookup: EvaluationLookup) -> String? {
        guard let entry = lookup.entry, case .text(let text)? = lookup.readable else { return nil }
        return computeValueID(of: text, at: entry)
    }

    /// The value id of PROTOCOL §7 of `text`, the value of the config at `entry`: computed (a SHA-256),
    /// and kept in the calling thread's stripe for the config's revision, so that the next evaluation
    /// of this revision there finds it.
    private func computeValueID(of text: String, at entry: EvaluationTable.Entry) -> String {
        let valueID = ValueID(of: text).rawValue
        state.read { _, stripe in stripe.valueIDs.keep(valueID, slot: entry.slot, revision: entry.revision) }
        return valueID
    }

    /// The id of the value an outcome read: the server's, or the value id of PROTOCOL §7 that the
    /// calling thread's stripe keeps for the config's revision (computed on the first read there).
    /// `nil` when the client holds no value for the key.
    func servedValueID(_ outcome: EvaluationOutcome) -> String? {
        // An outcome holds a config only with the entry it was read at.
        guard let config = outcome.state, let entry = outcome.entry else { return nil }
        if let valueID = config.valueID { return valueID }
        guard let text = config.value else { return nil }
        let kept = state.read { _, stripe in stripe.valueIDs.find(slot: entry.slot, revision: entry.revision) }
        return kept ?? computeValueID(of: text, at: entry)
    }

    /// The evaluation `evaluations` publishes for an outcome and its value, wrapped.
    func configEvaluation(_ outcome: EvaluationOutcome, value: ConfigEvaluationValue) -> ConfigEvaluation {
        Self.evaluationParts(
            outcome.reason, valueID: { servedValueID(outcome) }, context: outcome.context, source: outcome.source
        ).evaluation(key: outcome.key, value: value)
    }

    /// The parts of the evaluation of a read that gave `reason`: the value id, the context and the source
    /// are those of a value served, and none (or the code default) otherwise.
    /// - Parameter valueID: The served value's id, asked for only when a value was served.
    @inline(__always)
    private static func evaluationParts(
        _ reason: EvaluationReason,
        valueID: () -> String?,
        context: ConfigDirectorContext?,
        source: ConfigValueSource
    ) -> EvaluationParts {
        let found = reason == .foundMatch
        return EvaluationParts(
            valueID: found ? valueID() : nil,
            context: context,
            reason: reason,
            source: found ? source.ofAValueServed : .codeDefault
        )
    }
}
