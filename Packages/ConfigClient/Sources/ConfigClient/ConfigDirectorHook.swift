@_spi(Internal) public import ConfigModel

/// What a hook's before stage hands to its after stage: whatever the hook puts in it.
public typealias ConfigDirectorHookData = [String: any Sendable]

/// Code of the app's that runs around every evaluation and around `initialize` and `updateContext`,
/// registered in ``ConfigDirectorClientOptions/hooks``.
///
/// The before stages run in registration order, the after stages in reverse order, on the thread that
/// evaluates (or that called `initialize` / `updateContext`). What a before stage returns is given to
/// the same hook's after stage. A stage that throws is skipped (its hook's after stage gets the data it
/// had before), and the first throw of each hook is logged as an error. A hook sees the evaluation but
/// never changes its value. Every stage has a default that does nothing, so a hook implements only the
/// stages it needs.
///
/// Hooks run for `value(for:)` reads and for the evaluations of `values(for:)` streams and observed
/// configs, including a re-evaluation that yields nothing because the value did not change. With no
/// hook registered, an evaluation costs what it costs without hooks.
///
/// ```swift
/// import ConfigDirector
/// import Foundation
///
/// struct EvaluationTimer: ConfigDirectorHook {
///     func beforeEvaluation(_ evaluation: EvaluationHookContext, data: ConfigDirectorHookData) throws
///         -> ConfigDirectorHookData
///     {
///         data.merging(["start": Date()]) { $1 }
///     }
///
///     func afterEvaluation(
///         _ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData
///     ) throws {
///         guard let start = data["start"] as? Date else { return }
///         let seconds = Date().timeIntervalSince(start)
///         print("\(evaluation.key): \(result.reason.rawValue) in \(seconds) s")
///     }
/// }
/// ```
///
/// (`ContinuousClock` would need iOS 16 or macOS 13, and `ProcessInfo.systemUptime` a reason in the app's privacy
/// manifest; `Date` needs neither.)
public protocol ConfigDirectorHook: Sendable {
    /// The hook's name, in the log; its type's name by default.
    var name: String { get }

    /// Runs before an evaluation.
    /// - Parameters:
    ///   - evaluation: The key, the type requested, the context and the default value.
    ///   - data: The data so far: empty.
    /// - Returns: The data handed to ``afterEvaluation(_:result:data:)``.
    func beforeEvaluation(_ evaluation: EvaluationHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData

    /// Runs after an evaluation, with its result.
    /// - Parameters:
    ///   - evaluation: What ``beforeEvaluation(_:data:)`` was given.
    ///   - result: The evaluation: its value, reason and value id, as `evaluations` publishes it.
    ///   - data: What this hook's before stage returned.
    func afterEvaluation(_ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData)
        throws

    /// Runs when `initialize` or `updateContext` is called, before the client connects.
    /// - Parameters:
    ///   - change: The context requested and the reason of the connect.
    ///   - data: The data so far: empty.
    /// - Returns: The data handed to ``afterContextChange(_:isReady:data:)``.
    func beforeContextChange(_ change: ContextChangeHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData

    /// Runs when `initialize` or `updateContext` returns.
    /// - Parameters:
    ///   - change: What ``beforeContextChange(_:data:)`` was given.
    ///   - isReady: Whether config values arrived for the context before the call returned.
    ///   - data: What this hook's before stage returned.
    func afterContextChange(_ change: ContextChangeHookContext, isReady: Bool, data: ConfigDirectorHookData) throws
}

extension ConfigDirectorHook {
    /// The hook's type name.
    public var name: String { String(describing: Self.self) }

    /// Returns `data` unchanged.
    public func beforeEvaluation(_ evaluation: EvaluationHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData
    { data }

    /// Does nothing.
    public func afterEvaluation(
        _ evaluation: EvaluationHookContext,
        result: ConfigEvaluation,
        data: ConfigDirectorHookData
    ) throws {}

    /// Returns `data` unchanged.
    public func beforeContextChange(_ change: ContextChangeHookContext, data: ConfigDirectorHookData) throws
        -> ConfigDirectorHookData
    { data }

    /// Does nothing.
    public func afterContextChange(_ change: ContextChangeHookContext, isReady: Bool, data: ConfigDirectorHookData)
        throws
    {}
}

/// What a hook is told about an evaluation before it runs.
public struct EvaluationHookContext: Sendable {
    /// The config key.
    public let key: String
    /// The type the config is read as: `Bool.self`, or the `Decodable` type of a JSON config.
    public let requestedType: any Any.Type
    /// The context evaluated against.
    public let context: ConfigDirectorContext?
    /// The default value given in code.
    public let defaultValue: ConfigEvaluationValue
}

/// What a hook is told about a call of `initialize` or `updateContext`.
public struct ContextChangeHookContext: Sendable {
    /// The context requested.
    public let context: ConfigDirectorContext?
    /// `.initialization` or `.contextUpdate`.
    public let reason: ConnectReason
}
