public import Foundation

/// Identical evaluations counted over a span of time: one entry of `aggregatedEvents.evaluatedConfig`.
@_spi(Internal) public struct TelemetryAggregatedEvaluation: Sendable, Hashable, Encodable {
    /// When the first of the evaluations happened.
    public var startTime: Date
    /// When the last of the evaluations happened.
    public var endTime: Date
    /// How many identical evaluations there were.
    public var count: Int
    /// What each of them reported.
    public var event: TelemetryEvaluationEvent

    /// Creates an aggregate.
    /// - Parameters:
    ///   - startTime: The first evaluation's time.
    ///   - endTime: The last evaluation's time.
    ///   - count: How many there were.
    ///   - event: What each reported.
    public init(startTime: Date, endTime: Date, count: Int, event: TelemetryEvaluationEvent) {
        self.startTime = startTime
        self.endTime = endTime
        self.count = count
        self.event = event
    }

    private enum CodingKeys: String, CodingKey {
        case startTime, endTime, count, event
    }

    /// Encodes the wire form, with times in ISO 8601, UTC, with milliseconds.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ISO8601Milliseconds.string(from: startTime), forKey: .startTime)
        try container.encode(ISO8601Milliseconds.string(from: endTime), forKey: .endTime)
        try container.encode(count, forKey: .count)
        try container.encode(event, forKey: .event)
    }
}
