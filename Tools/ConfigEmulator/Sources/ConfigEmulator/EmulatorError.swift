/// An error from starting or configuring an emulator.
public enum EmulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configs file or admin payload does not hold valid configs; the text says where and why.
    case invalidConfigs(String)
    /// The listening socket could not be opened; the text gives the system's reason.
    case cannotListen(String)
    /// ``ConfigEmulator/start()`` was called on an emulator that is running or was stopped.
    case alreadyStarted
    /// Nothing happened before the wait's timeout.
    case timedOut(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidConfigs(let reason): "invalid configs: \(reason)"
        case .cannotListen(let reason): "cannot listen: \(reason)"
        case .alreadyStarted: "the emulator was already started"
        case .timedOut(let what): "timed out waiting for \(what)"
        }
    }
}
