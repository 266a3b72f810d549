/// Where the values a client serves come from.
public enum ConfigValueSource: Sendable, Hashable {
    /// No values yet: every evaluation returns its default value.
    case none
    /// Values the app ships (``ConfigDirectorClientOptions/bundledValues``), served until values kept on
    /// the device or live values arrive.
    case bundledValues
    /// Values kept on the device from an earlier launch, served until live values arrive (stale).
    case keptValues
    /// Values received from ConfigDirector (or given for offline mode) in this launch.
    case live
}

extension ConfigValueSource {
    /// Whether values kept on the device replace the values served: nothing, or bundled values.
    var yieldsToKeptValues: Bool { self == .none || self == .bundledValues }
}
