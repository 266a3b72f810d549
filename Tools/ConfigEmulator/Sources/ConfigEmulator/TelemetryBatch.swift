@_spi(Internal) public import ConfigModel
public import Foundation

/// A telemetry batch the emulator accepted (PROTOCOL §6), decoded.
public struct TelemetryBatch: Sendable, Hashable, Codable {
    /// The whole body as JSON.
    public var body: ConfigDirectorContext.TraitValue
    /// When it arrived.
    public var receivedAt: Date

    /// Creates a batch.
    /// - Parameters:
    ///   - body: The batch as JSON.
    ///   - receivedAt: When it arrived.
    public init(body: ConfigDirectorContext.TraitValue, receivedAt: Date) {
        self.body = body
        self.receivedAt = receivedAt
    }

    /// The `context` the events belong to, when the batch has one that decodes.
    public var context: ConfigDirectorContext? {
        guard case .dictionary(let members) = body, let context = members["context"] else { return nil }
        return try? JSONDecoder().decode(ConfigDirectorContext.self, from: Data(context.jsonText.utf8))
    }

    /// The entries of `aggregatedEvents.evaluatedConfig`, each an object with `count` and `event`.
    public var evaluatedConfigEvents: [ConfigDirectorContext.TraitValue] {
        guard case .dictionary(let members) = body, case .dictionary(let aggregated)? = members["aggregatedEvents"],
            case .array(let events)? = aggregated["evaluatedConfig"]
        else { return [] }
        return events
    }
}
