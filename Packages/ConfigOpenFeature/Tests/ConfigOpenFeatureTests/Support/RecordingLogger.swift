@_spi(Internal) @_spi(Locking) import ConfigModel

/// A logger that keeps every message, for tests that check what was logged.
final class RecordingLogger: ConfigDirectorLogger {
    let level: ConfigDirectorLogLevel = .debug
    private let messages = Locked<[(ConfigDirectorLogLevel, String)]>([])

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        messages.withLock { $0.append((level, message)) }
    }

    /// The messages logged at `level`, in order.
    func messages(at level: ConfigDirectorLogLevel) -> [String] {
        messages.withLock { $0.filter { $0.0 == level }.map(\.1) }
    }
}
