#if Tracing
public import ConfigModel
public import Tracing

/// A ``ConfigDirectorHook`` that records each evaluation as an event on the current span of
/// swift-distributed-tracing, with OpenTelemetry's semantic conventions for feature flags; built with the
/// package trait `Tracing`.
///
/// ```swift
/// let client = try ConfigDirectorClient(
///     clientSDKKey: "YOUR-CLIENT-SDK-KEY",
///     options: ConfigDirectorClientOptions(hooks: [TracingHook()])
/// )
/// withSpan("checkout") { _ in
///     _ = client.value(for: "new-checkout", default: false)  // an event on the span "checkout"
/// }
/// ```
///
/// The current span is the one the tracer finds for `ServiceContext.current` where the evaluation runs:
/// the caller's for `value(for:default:)` and the detail reads. Each evaluation adds the event
/// `feature_flag.evaluation` with the attributes
/// - `feature_flag.key`: the config key;
/// - `feature_flag.provider.name`: ``providerName``;
/// - `feature_flag.result.reason`: the ``EvaluationReason`` in lower snake case, such as `found_match`;
/// - `feature_flag.result.variant`: the served value's id, when a value was served;
/// - `error.type`: on a reason that is an error, OpenFeature's error code in lower snake case
///   (`flag_not_found`, `provider_not_ready`, `type_mismatch`, `parse_error`);
/// - `feature_flag.context.id`: the context's id, only with `recordsContextID`;
/// - `feature_flag.result.value`: the value returned, only with `recordsValue` (a value may be sensitive):
///   a `Bool`, `Int`, `Double` or `String` as itself, any other value as its description.
///
/// The hook never throws. With no `ServiceContext` current it reads nothing more, and with no recording span
/// for the context it builds nothing. Where a context is always current (a server framework's request), give
/// the tracer once bootstrapped, `TracingHook(tracer: InstrumentationSystem.tracer)`: the hook then does not
/// look it up in `InstrumentationSystem` at each evaluation.
public struct TracingHook: ConfigDirectorHook {
    /// The name of the span event of each evaluation.
    public static let eventName = "feature_flag.evaluation"

    /// The tracer asked for the current span, or `nil` for the tracer bootstrapped in
    /// `InstrumentationSystem` when the evaluation runs.
    public let tracer: (any Tracer)?
    /// The value of `feature_flag.provider.name`.
    public let providerName: String
    /// Whether the event carries the context's id as `feature_flag.context.id`.
    public let recordsContextID: Bool
    /// Whether the event carries the value returned as `feature_flag.result.value`.
    public let recordsValue: Bool

    /// Creates a hook that records evaluations on the current span.
    /// - Parameters:
    ///   - tracer: The tracer asked for the current span; by default the one bootstrapped in
    ///     `InstrumentationSystem`, looked up at each evaluation that has a `ServiceContext`.
    ///   - providerName: The value of `feature_flag.provider.name`; `ConfigDirector` by default.
    ///   - recordsContextID: Whether to record the context's id; off by default.
    ///   - recordsValue: Whether to record the value returned, which may be sensitive; off by default.
    public init(
        tracer: (any Tracer)? = nil,
        providerName: String = "ConfigDirector",
        recordsContextID: Bool = false,
        recordsValue: Bool = false
    ) {
        self.tracer = tracer
        self.providerName = providerName
        self.recordsContextID = recordsContextID
        self.recordsValue = recordsValue
    }

    /// Adds the event `feature_flag.evaluation` of `result` to the current span, when there is one that
    /// records.
    /// - Parameters:
    ///   - evaluation: What the evaluation was asked.
    ///   - result: The evaluation.
    ///   - data: Unused.
    public func afterEvaluation(
        _ evaluation: EvaluationHookContext,
        result: ConfigEvaluation,
        data: ConfigDirectorHookData
    ) {
        guard let context = ServiceContext.current else { return }
        let tracer = tracer ?? InstrumentationSystem.tracer
        guard let span = tracer.activeSpan(identifiedBy: context), span.isRecording else { return }
        span.addEvent(SpanEvent(name: Self.eventName, attributes: attributes(of: result)))
    }

    /// The attributes of the event of `result`.
    func attributes(of result: ConfigEvaluation) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes.set("feature_flag.key", value: .string(result.key))
        attributes.set("feature_flag.provider.name", value: .string(providerName))
        attributes.set("feature_flag.result.reason", value: .string(Self.snakeCase(of: result.reason)))
        if let valueID = result.valueID {
            attributes.set("feature_flag.result.variant", value: .string(valueID))
        }
        if let errorType = Self.errorType(of: result.reason) {
            attributes.set("error.type", value: .string(errorType))
        }
        if recordsContextID, let id = result.context?.id {
            attributes.set("feature_flag.context.id", value: .string(id))
        }
        if recordsValue {
            attributes.set("feature_flag.result.value", value: Self.attribute(of: result.value))
        }
        return attributes
    }

    /// `reason`'s raw value in lower snake case.
    static func snakeCase(of reason: EvaluationReason) -> String {
        switch reason {
        case .foundMatch: "found_match"
        case .configStateMissing: "config_state_missing"
        case .clientNotReady: "client_not_ready"
        case .valueMissing: "value_missing"
        case .invalidNumber: "invalid_number"
        case .invalidBoolean: "invalid_boolean"
        case .invalidJSON: "invalid_json"
        case .typeMismatch: "type_mismatch"
        }
    }

    /// OpenFeature's error code of `reason` in lower snake case, or `nil` when the reason is no error: a
    /// served value, or a config without a value.
    static func errorType(of reason: EvaluationReason) -> String? {
        switch reason {
        case .foundMatch, .valueMissing: nil
        case .configStateMissing: "flag_not_found"
        case .clientNotReady: "provider_not_ready"
        case .typeMismatch: "type_mismatch"
        case .invalidNumber, .invalidBoolean, .invalidJSON: "parse_error"
        }
    }

    /// `value` as a span attribute: a boolean, an integer, a double or a string as itself, any other value
    /// as its description.
    static func attribute(of value: ConfigEvaluationValue) -> SpanAttribute {
        if let bool = value.as(Bool.self) { return .bool(bool) }
        if let int = value.as(Int.self) { return .int64(Int64(int)) }
        if let double = value.as(Double.self) { return .double(double) }
        if let string = value.as(String.self) { return .string(string) }
        return .string(value.description)
    }
}
#endif
