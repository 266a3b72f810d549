/// How much the SDK logs, from nothing to everything.
public enum ConfigDirectorLogLevel: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Nothing is logged.
    case off = -1
    /// Failures that stop something the app relies on.
    case error = 0
    /// Conditions the app should know about; the default.
    case warn = 1
    /// Lifecycle milestones.
    case info = 2
    /// Everything, for diagnosing the SDK.
    case debug = 3

    /// Orders levels from ``off`` to ``debug``, the least verbose first.
    /// - Parameters:
    ///   - lhs: A level.
    ///   - rhs: Another level.
    /// - Returns: `true` when `lhs` is less verbose than `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level's name, such as `warn`.
    public var description: String {
        switch self {
        case .off: "off"
        case .error: "error"
        case .warn: "warn"
        case .info: "info"
        case .debug: "debug"
        }
    }
}
