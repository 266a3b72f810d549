public import Foundation

/// How the client connects to ConfigDirector.
///
/// ```swift
/// ConnectionOptions(mode: .polling, pollingInterval: 600, timeout: 2)
/// ```
public struct ConnectionOptions: Sendable, Hashable {
    /// The polling interval used when none is given: 60 seconds.
    public static let defaultPollingInterval: TimeInterval = 60

    /// The size limit used when none is given: 8 MiB, room for about 60,000 configs (a set of 10,000
    /// configs takes about 1.3 MB).
    public static let defaultMaxEventSize = 8 * 1024 * 1024

    /// The smallest size limit; a smaller one is raised to it: 64 KiB.
    public static let minimumMaxEventSize = 64 * 1024

    /// The connection mode; `.streaming` by default.
    public var mode: ConnectionMode
    /// Seconds between fetches in `.polling` mode; 60 by default, at least 30 (a smaller value is raised to 30,
    /// one that is not a finite number replaced by 60, each with one warning at creation).
    public var pollingInterval: TimeInterval
    /// Seconds `initialize` and `updateContext` wait for config values; 3 by default.
    public var timeout: TimeInterval
    /// The base URL of ConfigDirector's services, for a proxy; `nil` uses ConfigDirector's own.
    public var baseURL: URL?
    /// Whether the connection is released while the app is in the background; `true` by default.
    /// It has no effect on macOS.
    public var pausesWhileBackgrounded: Bool
    /// The most bytes one streamed event or one polling response may take; 8 MiB by default, at least
    /// 64 KiB.
    ///
    /// A larger one is refused as soon as its first byte past the limit arrives: the connection is
    /// dropped without reading the rest, the SDK logs one warning and keeps serving the values it has,
    /// and reconnects with a growing backoff (as after any failure) rather than downloading it again
    /// at once.
    public var maxEventSize: Int

    /// Creates connection options.
    /// - Parameters:
    ///   - mode: `.streaming` (default), `.polling` or `.offline`.
    ///   - pollingInterval: Seconds between fetches when polling; a value below 30 is raised to 30
    ///     with a warning.
    ///   - timeout: Seconds `initialize` and `updateContext` wait for values.
    ///   - baseURL: A proxy's base URL, or `nil`.
    ///   - pausesWhileBackgrounded: Whether to release the connection in the background.
    ///   - maxEventSize: The most bytes of one streamed event or polling response; 8 MiB by default, a
    ///     value below 64 KiB is raised to 64 KiB.
    public init(
        mode: ConnectionMode = .streaming,
        pollingInterval: TimeInterval = defaultPollingInterval,
        timeout: TimeInterval = 3,
        baseURL: URL? = nil,
        pausesWhileBackgrounded: Bool = true,
        maxEventSize: Int = defaultMaxEventSize
    ) {
        self.mode = mode
        self.pollingInterval = pollingInterval
        self.timeout = timeout
        self.baseURL = baseURL
        self.pausesWhileBackgrounded = pausesWhileBackgrounded
        self.maxEventSize = maxEventSize
    }

    /// The size limit in force: ``maxEventSize`` raised to ``minimumMaxEventSize``.
    var effectiveMaxEventSize: Int { max(maxEventSize, Self.minimumMaxEventSize) }
}
