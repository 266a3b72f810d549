/// Facts about this SDK that travel on the wire and into the values kept on the device.
@_spi(Internal) public enum ConfigDirectorSDK {
    /// The SDK's version, sent as `sdkVersion`.
    public static let version = "1.11.0"

    /// The `sdkName` of a client created directly.
    public static let clientSDKName = "swift-client-sdk"

    /// The `sdkName` of a client created by the OpenFeature provider.
    public static let openFeatureProviderSDKName = "swift-openfeature-client-provider"

    /// The processor architecture the app runs on, for the `User-Agent` header: `x86_64`, `arm64`, `arm`,
    /// `i386`, or `unknown`.
    public static var architecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "arm64"
        #elseif arch(arm)
        "arm"
        #elseif arch(i386)
        "i386"
        #else
        "unknown"
        #endif
    }

    /// The platform the app runs on, sent as `userAgent`: `iOS`, `macOS`, `macCatalyst`, `tvOS`,
    /// `watchOS`, `visionOS`, `linux` or `unknown`.
    public static var platformName: String {
        #if targetEnvironment(macCatalyst)
        "macCatalyst"
        #elseif os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(Linux)
        "linux"
        #else
        "unknown"
        #endif
    }
}
