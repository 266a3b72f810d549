@_spi(Internal) import ConfigModel
import Foundation
import Testing

@Suite("SDK facts and meta context")
struct ConfigDirectorSDKTests {
    @Test("names the SDK as the protocol says")
    func names() {
        #expect(ConfigDirectorSDK.clientSDKName == "swift-client-sdk")
        #expect(ConfigDirectorSDK.openFeatureProviderSDKName == "swift-openfeature-client-provider")
        #expect(!ConfigDirectorSDK.version.isEmpty)
        let platforms = ["iOS", "macOS", "macCatalyst", "tvOS", "watchOS", "visionOS", "linux", "unknown"]
        #expect(platforms.contains(ConfigDirectorSDK.platformName))
        #if os(Linux)
        #expect(ConfigDirectorSDK.platformName == "linux")
        #endif
    }

    @Test("encodes the meta context with nil fields omitted")
    func metaContext() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let meta = MetaContext(appName: nil, appVersion: "1.0.2", userAgent: "iOS")
        let text = String(decoding: try encoder.encode(meta), as: UTF8.self)
        #expect(
            text == #"{"appVersion":"1.0.2","sdkName":"swift-client-sdk","sdkVersion":"\#(ConfigDirectorSDK.version)","#
                + #""userAgent":"iOS"}"#
        )
        #expect(try JSONDecoder().decode(MetaContext.self, from: encoder.encode(meta)) == meta)
    }
}
