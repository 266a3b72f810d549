@_spi(Internal) internal import ConfigModel

/// What an evaluation holds of a JSON config read as a type whose `Decodable` conformance is isolated to
/// the caller's actor (the main-actor `value(for:as:default:)`): that type cannot cross threads, so the
/// evaluation keeps, counts and publishes the served document instead, and the caller decodes it on its
/// own thread.
struct IsolatedJSONDocument<Value>: StandInValue, CustomStringConvertible {
    /// The served document, which decoded as `Value`; `nil` when the evaluation gave the default.
    let text: String?
    /// The default's description, which telemetry reports as the default.
    let description: String

    static var requestedType: any Any.Type { Value.self }

    /// The served document, or the default's description.
    var evaluationValue: ConfigEvaluationValue { ConfigEvaluationValue(text ?? description) }
}

/// A value an evaluation holds in place of one of the app's values that cannot cross threads: telemetry
/// and the hooks name the app's type, and the `evaluations` stream and the hooks get ``evaluationValue``.
protocol StandInValue: Sendable {
    /// The type the app asked for.
    static var requestedType: any Any.Type { get }
    /// What the `evaluations` stream and the hooks are given as the value.
    var evaluationValue: ConfigEvaluationValue { get }
}
