public import Foundation

/// The URLs of the ConfigDirector client API under a base URL (PROTOCOL §1).
@_spi(Internal) public struct ServiceEndpoint: Sendable, Hashable {
    /// The base URL of ConfigDirector's service.
    public static let defaultBaseURL = URL(string: "https://client-sdk-api.configdirector.com")!

    /// The base URL; any path it has is kept.
    public let baseURL: URL

    /// Creates the endpoints under a base URL.
    /// - Parameter baseURL: The service's base URL; a trailing slash makes no difference.
    public init(baseURL: URL = ServiceEndpoint.defaultBaseURL) {
        self.baseURL = baseURL
    }

    /// Whether `url` can be a base URL: it has a scheme and a host.
    /// - Parameter url: The URL to check.
    public static func isValidBaseURL(_ url: URL) -> Bool {
        guard let scheme = url.scheme, !scheme.isEmpty, let host = url.host, !host.isEmpty else { return false }
        return true
    }

    /// The streaming endpoint, `/client/sse/v1`.
    public var streaming: URL { url(forPath: "client/sse/v1") }
    /// The polling endpoint, `/client/polling/v1`.
    public var polling: URL { url(forPath: "client/polling/v1") }
    /// The telemetry endpoint, `/client/telemetry/v1`.
    public var telemetry: URL { url(forPath: "client/telemetry/v1") }

    private func url(forPath path: String) -> URL {
        var url = baseURL
        for component in path.split(separator: "/") {
            url.appendPathComponent(String(component))
        }
        return url
    }
}
