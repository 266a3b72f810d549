/// Where the values a client serves come from.
public enum ConfigValueSource: Sendable, Hashable {
    /// No values yet: every evaluation returns its default value.
    case none
    /// Values kept on the device from an earlier launch, served until live values arrive (stale).
    case keptValues
    /// Values received from ConfigDirector (or given for offline mode) in this launch.
    case live
}
