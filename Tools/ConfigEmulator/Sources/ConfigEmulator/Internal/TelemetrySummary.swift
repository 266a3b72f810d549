@_spi(Internal) internal import ConfigModel
internal import Foundation

/// What the dashboard shows of the telemetry received: evaluations per key and reason, and the SDKs
/// (name and version from `metaContext`) that sent batches.
struct TelemetrySummary: Encodable, Equatable {
    struct SDK: Encodable, Equatable {
        var name: String
        var version: String
        var batches: Int
        var lastReceivedAt: Date
    }

    struct Evaluations: Encodable, Equatable {
        var key: String
        var reason: String
        var count: Int
    }

    var batches = 0
    var sdks: [SDK] = []
    var evaluations: [Evaluations] = []

    init(_ received: [TelemetryBatch]) {
        batches = received.count
        var counts: [String: [String: Int]] = [:]
        for batch in received {
            var name = "unknown"
            var version = "?"
            if case .dictionary(let members) = batch.body, case .dictionary(let meta)? = members["metaContext"] {
                if case .string(let text)? = meta["sdkName"] { name = text }
                if case .string(let text)? = meta["sdkVersion"] { version = text }
            }
            if let index = sdks.firstIndex(where: { $0.name == name && $0.version == version }) {
                sdks[index].batches += 1
                sdks[index].lastReceivedAt = batch.receivedAt
            } else {
                sdks.append(SDK(name: name, version: version, batches: 1, lastReceivedAt: batch.receivedAt))
            }
            for entry in batch.evaluatedConfigEvents {
                guard case .dictionary(let members) = entry, case .dictionary(let event)? = members["event"],
                    case .string(let key)? = event["key"]
                else { continue }
                var reason = "unknown"
                if case .string(let text)? = event["evaluationReason"] { reason = text }
                var count = 1
                if case .int(let number)? = members["count"] { count = number }
                counts[key, default: [:]][reason, default: 0] += count
            }
        }
        evaluations = counts.keys.sorted().flatMap { key in
            counts[key]!.keys.sorted().map { Evaluations(key: key, reason: $0, count: counts[key]![$0]!) }
        }
    }
}
