@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import Foundation

/// The document of benchmark 12: a theme as a SwiftUI body reads it on every frame.
private struct Theme: Decodable, Sendable {
    var primary: String
    var secondary: String
    var cornerRadius: Double
    var spacing: [Int]
    var showsBadges: Bool
}

/// 12. A repeated JSON read: `value(for:as:default:)` of an unchanged JSON config, against benchmark 1's
/// subject (a boolean read), on a ready client of 1,000 configs, telemetry on.
func benchmarkJSONRead() async {
    print("\n== 12. JSON read: value(for:as:default:) of an unchanged JSON config, 1,000 configs, telemetry on")
    var set = booleanSet(count: 1_000)
    set.configs["theme"] = ConfigState(
        id: "id-theme", key: "theme", type: .json,
        value: ##"{"primary":"#101010","secondary":"#f0f0f0","cornerRadius":8,"spacing":[4,8,16],"showsBadges":true}"##)
    let served = await ServedClient.make(initial: set, telemetry: true)
    let client = served.client
    let key = flagKey(500)
    let fallback = Theme(primary: "#000000", secondary: "#ffffff", cornerRadius: 0, spacing: [], showsBadges: false)
    let read = { client.value(for: "theme", as: Theme.self, default: fallback) }
    // The first read decodes; every later one reads the decode its stripe kept.
    let first = read()
    print("  the document decodes: \(first.primary == "#101010" && first.spacing == [4, 8, 16] ? "yes" : "NO")")

    let (baseline, subject) = compare(
        operations: 20_000,
        budgetSeconds: isQuick ? 2 : 8,
        baseline: { blackHole(client.value(for: key, default: false)) },
        subject: { blackHole(read().cornerRadius) }
    )
    let ratio = printComparison(
        "json_read",
        baseline: ("value(for:default:) of a Bool", baseline),
        subject: ("value(for:as:default:)", subject)
    )
    let perRead = printAllocationsPerOperation("json_read", per: "JSON read") { blackHole(read().cornerRadius) }
    report.target("json_read", "a repeated JSON read within 3× a Bool read at the median", pass: ratio <= 3)
    reportNoAllocationTarget("json_read.allocations", per: "repeated JSON read", perRead)
    client.close()
}
