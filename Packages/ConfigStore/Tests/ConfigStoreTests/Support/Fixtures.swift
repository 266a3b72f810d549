@_spi(Internal) import ConfigModel
import Foundation

/// Config sets and contexts the tests save and load.
enum Fixtures {
    static let sdkKey = "client-sdk-key-RAW-4f1c2a9e7b"
    static let otherSDKKey = "client-sdk-key-OTHER-8d3e6c"
    static let writtenAt = Date(timeIntervalSince1970: 1_800_000_000)

    static let ada = ConfigDirectorContext(id: "user-123", name: "Ada", traits: ["plan": "pro"])
    static let grace = ConfigDirectorContext(id: "user-456")
    static let acme = ConfigDirectorContext(id: "user-123", kind: "tenant")

    /// A full set of `count` string configs, the `revision` written into every value.
    static func configSet(count: Int = 3, revision: Int = 1, padding: String = "") -> ConfigSet {
        var configs: [String: ConfigState] = [:]
        for index in 0..<count {
            let key = "config-\(index)"
            configs[key] = ConfigState(
                id: "id-\(index)",
                key: key,
                type: .string,
                value: "value-\(index)-r\(revision)\(padding)",
                valueID: "vid-\(index)"
            )
        }
        return ConfigSet(
            environmentID: "env-1",
            projectID: "project-1",
            timestamp: "2026-08-29T00:00:00Z",
            configs: configs
        )
    }
}
