@_spi(Internal) import ConfigModel
import Foundation
import Testing

@Suite("The SDK's version", .timeLimit(.minutes(1)))
struct ConfigDirectorSDKTests {
    @Test("is one the documented manifests resolve: from 1.7.0 and from 1.10.1, below 2.0.0")
    func versionSatisfiesTheDocumentedRequirements() throws {
        let parts = ConfigDirectorSDK.version.split(separator: ".").compactMap { Int($0) }
        try #require(parts.count == 3)
        #expect(parts.lexicographicallyPrecedes([1, 7, 0]) == false)
        #expect(parts.lexicographicallyPrecedes([1, 10, 1]) == false)
        #expect(parts.lexicographicallyPrecedes([2, 0, 0]))
    }

    @Test("is the release the README tells users to depend on")
    func readmeNamesTheVersion() throws {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(text.contains("tagged `\(ConfigDirectorSDK.version)`"))
        #expect(text.contains(#"from: "1.7.0""#))
    }

    @Test("names itself in the User-Agent header: wire name, version, platform and architecture")
    func userAgentHeader() {
        let linux = MetaContext(appName: nil, appVersion: nil, userAgent: "linux")
        #expect(
            linux.userAgentHeader
                == "swift-client-sdk/\(ConfigDirectorSDK.version) (Linux; \(ConfigDirectorSDK.architecture))")
        let provider = MetaContext(
            sdkName: ConfigDirectorSDK.openFeatureProviderSDKName, appName: "App", appVersion: "2", userAgent: "iOS")
        #expect(
            provider.userAgentHeader.hasPrefix("swift-openfeature-client-provider/\(ConfigDirectorSDK.version) (iOS; "))
        #expect(["x86_64", "arm64", "arm", "i386"].contains(ConfigDirectorSDK.architecture))
    }
}
