public import Foundation

/// How the client connects to ConfigDirector.
///
/// ```swift
/// ConnectionOptions(mode: .polling, pollingInterval: 600, timeout: 2)
/// ```
public struct ConnectionOptions: Sendable, Hashable {
    /// How config values reach the client.
    public enum Mode: Sendable, Hashable {
        /// Holds a connection open and receives changes as they happen, reconnecting with a backoff.
        case streaming
        /// Fetches the config state every ``ConnectionOptions/pollingInterval`` seconds.
        case polling
        /// Connects to nothing and serves the values given in ``ConfigDirectorClientOptions/values``.
        case offline
    }

    /// The smallest polling interval, in seconds; a smaller one is raised to it with a warning.
    public static let minimumPollingInterval: Double = 30

    /// The connection mode; `.streaming` by default.
    public var mode: Mode
    /// Seconds between fetches in `.polling` mode; 60 by default, at least 30.
    public var pollingInterval: Double
    /// Seconds `initialize` and `updateContext` wait for config values; 3 by default.
    public var timeout: Double
    /// Whether the connection is released while the app is in the background; `true` by default.
    /// It has no effect on macOS.
    public var pausesWhileBackgrounded: Bool
    /// The base URL of ConfigDirector's services, for a proxy; `nil` uses ConfigDirector's own.
    public var baseURL: URL?

    /// Creates connection options.
    /// - Parameters:
    ///   - mode: `.streaming` (default), `.polling` or `.offline`.
    ///   - pollingInterval: Seconds between fetches when polling; at least 30.
    ///   - timeout: Seconds `initialize` and `updateContext` wait for values.
    ///   - pausesWhileBackgrounded: Whether to release the connection in the background.
    ///   - baseURL: A proxy's base URL, or `nil`.
    public init(
        mode: Mode = .streaming,
        pollingInterval: Double = 60,
        timeout: Double = 3,
        pausesWhileBackgrounded: Bool = true,
        baseURL: URL? = nil
    ) {
        self.mode = mode
        self.pollingInterval = pollingInterval
        self.timeout = timeout
        self.pausesWhileBackgrounded = pausesWhileBackgrounded
        self.baseURL = baseURL
    }
}
