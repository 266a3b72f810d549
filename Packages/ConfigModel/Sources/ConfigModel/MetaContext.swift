/// What the SDK tells the server about itself and the app: the `metaContext` of PROTOCOL §2.
@_spi(Internal) public struct MetaContext: Sendable, Hashable, Codable {
    /// `swift-client-sdk`, or `swift-openfeature-client-provider` under the OpenFeature provider.
    public var sdkName: String
    /// The SDK's version.
    public var sdkVersion: String
    /// The app's name.
    public var appName: String?
    /// The app's version.
    public var appVersion: String?
    /// The platform name (see ``ConfigDirectorSDK/platformName``).
    public var userAgent: String

    /// Creates a meta context.
    /// - Parameters:
    ///   - sdkName: The SDK's wire name.
    ///   - sdkVersion: The SDK's version.
    ///   - appName: The app's name, if known.
    ///   - appVersion: The app's version, if known.
    ///   - userAgent: The platform name.
    public init(
        sdkName: String = ConfigDirectorSDK.clientSDKName,
        sdkVersion: String = ConfigDirectorSDK.version,
        appName: String?,
        appVersion: String?,
        userAgent: String = ConfigDirectorSDK.platformName
    ) {
        self.sdkName = sdkName
        self.sdkVersion = sdkVersion
        self.appName = appName
        self.appVersion = appVersion
        self.userAgent = userAgent
    }

    /// The `User-Agent` header of every request: the SDK's wire name and version, then the platform and the
    /// architecture, such as `swift-client-sdk/1.11.0 (Linux; x86_64)`. Bot protection in front of the
    /// service refuses a missing or a library's default User-Agent with a 403 that reads as a refused key.
    public var userAgentHeader: String {
        "\(sdkName)/\(sdkVersion) (\(userAgent == "linux" ? "Linux" : userAgent); \(ConfigDirectorSDK.architecture))"
    }
}
