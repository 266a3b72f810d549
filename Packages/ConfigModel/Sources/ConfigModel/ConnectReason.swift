/// The action that made the client connect, carried by ``ClientEvent/ready(_:)``.
public enum ConnectReason: Sendable, Hashable, CustomStringConvertible {
    /// `initialize` was called.
    case initialization
    /// `updateContext` was called.
    case contextUpdate
    /// `resumeNetwork` was called, or the app returned to the foreground.
    case networkResume

    /// What the client was doing: `initialization`, `context update` or `network resume`.
    public var description: String {
        switch self {
        case .initialization: "initialization"
        case .contextUpdate: "context update"
        case .networkResume: "network resume"
        }
    }
}
