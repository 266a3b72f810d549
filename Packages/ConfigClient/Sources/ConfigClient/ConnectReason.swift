/// The action that made the client connect, carried by ``ConfigDirectorEvent/ready(_:)``.
public enum ConnectReason: Sendable, Hashable, CustomStringConvertible {
    /// `initialize` was called.
    case initialization
    /// `updateContext` was called.
    case contextUpdate
    /// `resumeNetwork` was called, or the app returned to the foreground.
    case networkResume

    /// The reason's name, such as `initialization`.
    public var description: String {
        switch self {
        case .initialization: "initialization"
        case .contextUpdate: "contextUpdate"
        case .networkResume: "networkResume"
        }
    }
}
