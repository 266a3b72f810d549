@_spi(Internal) import ConfigModel
import Foundation

/// Config sets and contexts the tests save and load.
enum Fixtures {
    static let sdkKey = "client-sdk-key-RAW-4f1c2a9e7b"
    /// SHA-256 of ``sdkKey``, written by `sha256sum`: the name kept values are stored under, the same on every
    /// platform (CryptoKit on Apple, PortableSHA256 elsewhere) and in every release.
    static let sdkKeyDigest = "2485722e6f434de54ec5d8785c744fe6cdd9032d16d46694398c70615218f538"
    static let otherSDKKey = "client-sdk-key-OTHER-8d3e6c"
    static let writtenAt = Date(timeIntervalSince1970: 1_800_000_000)

    static let ada = ConfigDirectorContext(id: "user-123", name: "Ada", traits: ["plan": "pro"])
    static let grace = ConfigDirectorContext(id: "user-456")
    static let acme = ConfigDirectorContext(id: "user-123", kind: "tenant")

    /// A full set of `count` string configs, the `revision` written into every value.
    static func configSet(count: Int = 3, revision: Int = 1, padding: String = "") -> ConfigSet {
        var configs: [ExactKey: ConfigState] = [:]
        for index in 0..<count {
            let key = "config-\(index)"
            configs[ExactKey(key)] = ConfigState(
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
