import ConfigEmulator
@_spi(Internal) import ConfigModel
import Foundation

/// Configs and request bodies shared by the tests.
enum Fixtures {
    static let sdkKey = "test-sdk-key"

    static let configs: [EmulatedConfig] = [
        EmulatedConfig(
            key: "dark-mode", type: .boolean, value: false,
            rules: [
                ContextRule(id: "user-1", value: true),
                ContextRule(trait: "plan", equals: "pro", value: true),
            ]
        ),
        EmulatedConfig(key: "welcome", type: .string, value: "hello"),
        EmulatedConfig(
            key: "max-items", type: .integer, value: 20,
            rules: [ContextRule(kind: "tenant", id: "acme", value: 100)]
        ),
    ]

    /// A configuration on an ephemeral port serving ``configs``, for tests that change its limits.
    static func configuration() -> EmulatorConfiguration {
        EmulatorConfiguration(port: 0, sdkKey: sdkKey, document: ConfigsDocument(configs: configs))
    }

    /// A connection request body (PROTOCOL §2).
    static func body(key: String = sdkKey, context: ConfigDirectorContext? = ConfigDirectorContext(id: "user-9"))
        -> String
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let contextJSON = context.map { String(decoding: try! encoder.encode($0), as: UTF8.self) } ?? "{}"
        return #"{"clientSdkKey":"\#(key)","givenContext":\#(contextJSON),"instanceId":"instance-1"}"#
    }

    /// Opens a stream with URLSession.
    static func openStream(
        _ emulator: ConfigEmulator,
        context: ConfigDirectorContext? = ConfigDirectorContext(id: "user-9"),
        headers: [String: String] = [:]
    ) -> StreamCollector {
        let collector = StreamCollector()
        collector.start(
            url: emulator.baseURL.appendingPathComponent("client/sse/v1"), body: body(context: context),
            headers: headers
        )
        return collector
    }

    /// An admin URL.
    static func admin(_ emulator: ConfigEmulator, _ path: String) -> URL {
        URL(string: "\(emulator.baseURL.absoluteString)/admin/\(path)")!
    }
}
