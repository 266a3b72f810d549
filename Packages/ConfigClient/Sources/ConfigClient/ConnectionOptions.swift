public import Foundation

/// How the client connects to ConfigDirector.
///
/// ```swift
/// ConnectionOptions(mode: .polling, pollingInterval: 600, timeout: 2)
/// ```
public struct ConnectionOptions: Sendable, Hashable {
    /// The polling interval used when none is given: 60 seconds.
    public static let defaultPollingInterval: TimeInterval = 60

    /// The connection mode; `.streaming` by default.
    public var mode: ConnectionMode
    /// Seconds between fetches in `.polling` mode; 60 by default, at least 30.
    public var pollingInterval: TimeInterval
    /// Seconds `initialize` and `updateContext` wait for config values; 3 by default.
    public var timeout: TimeInterval
    /// The base URL of ConfigDirector's services, for a proxy; `nil` uses ConfigDirector's own.
    public var baseURL: URL?
    /// Whether the connection is released while the app is in the background; `true` by default.
    /// It has no effect on macOS.
    public var pausesWhileBackgrounded: Bool

    /// Creates connection options.
    /// - Parameters:
    ///   - mode: `.streaming` (default), `.polling` or `.offline`.
    ///   - pollingInterval: Seconds between fetches when polling; a value below 30 is raised to 30
    ///     with a warning.
    ///   - timeout: Seconds `initialize` and `updateContext` wait for values.
    ///   - baseURL: A proxy's base URL, or `nil`.
    ///   - pausesWhileBackgrounded: Whether to release the connection in the background.
    public init(
        mode: ConnectionMode = .streaming,
        pollingInterval: TimeInterval = defaultPollingInterval,
        timeout: TimeInterval = 3,
        baseURL: URL? = nil,
        pausesWhileBackgrounded: Bool = true
    ) {
        self.mode = mode
        self.pollingInterval = pollingInterval
        self.timeout = timeout
        self.baseURL = baseURL
        self.pausesWhileBackgrounded = pausesWhileBackgrounded
    }
}
