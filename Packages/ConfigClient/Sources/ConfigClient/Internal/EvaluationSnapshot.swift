@_spi(Internal) internal import ConfigModel

/// What an evaluation of one key reads from the client's state, taken under its lock.
struct EvaluationSnapshot: Sendable {
    /// The config held for the key, if any.
    var state: ConfigState?
    /// Whether the client is ready.
    var isReady: Bool
    /// The context evaluated against, boxed: taking it is one retain.
    var contextBox: ContextBox?
    /// Whether the `evaluations` stream has subscribers, so that evaluations skip building elements
    /// nobody reads without taking another lock.
    var publishesEvaluations: Bool
}

extension EvaluationSnapshot {
    /// The context evaluated against.
    var context: ConfigDirectorContext? { contextBox?.context }
}

/// A context held by reference, so that the snapshots and outcomes of evaluations share it rather
/// than copy its three strings and its traits. Immutable: a new context is a new box.
final class ContextBox: Sendable {
    /// The context.
    let context: ConfigDirectorContext

    /// Boxes `context`.
    init(_ context: ConfigDirectorContext) {
        self.context = context
    }
}
