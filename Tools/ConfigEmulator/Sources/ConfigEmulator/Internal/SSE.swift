@_spi(Internal) internal import ConfigModel
internal import Foundation

/// Builds the Server-Sent Events the emulator writes.
enum SSE {
    /// An event with an id whose data is a config set.
    static func event(id: String, set: ConfigSet) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(set)) ?? Data("{}".utf8)
        return Array("id: \(id)\ndata: ".utf8) + Array(data) + Array("\n\n".utf8)
    }

    /// The heartbeat comment.
    static let heartbeat: [UInt8] = Array(": heartbeat\n\n".utf8)

    /// An event whose data is not JSON and has no id.
    static let malformed: [UInt8] = Array("data: {\"kind\": \"delta\", \"configs\": {\"broken\n\n".utf8)

    /// A valid delta, without an id, whose data is longer than `bytes`.
    static func oversized(bytes: Int, timestamp: String) -> [UInt8] {
        let padding = String(repeating: "x", count: bytes)
        let set = ConfigSet(
            kind: .delta, timestamp: timestamp,
            configs: [
                "emulator-oversized": ConfigState(
                    id: "emulator-oversized", key: "emulator-oversized", type: .string, value: padding
                )
            ]
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(set)) ?? Data(padding.utf8)
        return Array("data: ".utf8) + Array(data) + Array("\n\n".utf8)
    }
}
