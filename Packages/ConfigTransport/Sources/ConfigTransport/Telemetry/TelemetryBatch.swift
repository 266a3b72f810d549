@_spi(Internal) public import ConfigModel

/// One batch of telemetry for one context: what ``TelemetryReporter`` sends in one request.
@_spi(Internal) public struct TelemetryBatch: Sendable, Hashable {
    /// The context the evaluations belong to, or `nil` (then `context` is omitted).
    public var context: ConfigDirectorContext?
    /// The evaluations, aggregated.
    public var evaluatedConfigs: [TelemetryAggregatedEvaluation]
    /// How many evaluations were dropped because the queue was full.
    public var droppedEvaluatedConfigCount: Int

    /// Creates a batch.
    /// - Parameters:
    ///   - context: The context the evaluations belong to.
    ///   - evaluatedConfigs: The aggregated evaluations.
    ///   - droppedEvaluatedConfigCount: How many evaluations were dropped.
    public init(
        context: ConfigDirectorContext?,
        evaluatedConfigs: [TelemetryAggregatedEvaluation],
        droppedEvaluatedConfigCount: Int = 0
    ) {
        self.context = context
        self.evaluatedConfigs = evaluatedConfigs
        self.droppedEvaluatedConfigCount = droppedEvaluatedConfigCount
    }
}
