internal import ConfigDirector

/// The evaluations that telemetry batches report, added up per config key and reason.
struct TelemetryCounts {
    /// For each key, the number of evaluations per reason (`found-match`, `value-missing`…).
    private(set) var byKey: [String: [String: Int]] = [:]

    /// Adds up entries of `aggregatedEvents.evaluatedConfig`, each an object with `count` and `event`.
    init(_ entries: [ConfigDirectorContext.TraitValue]) {
        for entry in entries {
            guard case .dictionary(let aggregate) = entry, case .int(let count)? = aggregate["count"],
                case .dictionary(let event)? = aggregate["event"], case .string(let key)? = event["key"]
            else { continue }
            var reason = "unknown"
            if case .string(let name)? = event["evaluationReason"] { reason = name }
            byKey[key, default: [:]][reason, default: 0] += count
        }
    }

    var total: Int { byKey.values.flatMap(\.values).reduce(0, +) }

    /// One row per key: the key, its count, and its count per reason.
    var rows: [[String]] {
        byKey.keys.sorted().map { key in
            let reasons = byKey[key, default: [:]]
            let total = reasons.values.reduce(0, +)
            let detail = reasons.keys.sorted().map { "\($0) \(reasons[$0]!)" }.joined(separator: ", ")
            return [key, String(total), detail]
        }
    }
}
