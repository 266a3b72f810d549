internal import ConfigModel

/// What an evaluation of one key reads from the client's state, taken under its lock.
struct EvaluationSnapshot: Sendable {
    /// The config held for the key, if any.
    var state: ConfigState?
    /// Whether the client is ready.
    var isReady: Bool
    /// The context evaluated against.
    var context: ConfigDirectorContext?
    /// Whether the `evaluations` stream has subscribers, so that evaluations skip building elements
    /// nobody reads without taking another lock.
    var publishesEvaluations: Bool
}
