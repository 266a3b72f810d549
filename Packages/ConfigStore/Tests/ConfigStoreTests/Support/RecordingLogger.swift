@_spi(Internal) import ConfigModel
import Foundation

/// A logger that keeps every message, to check what the store reports and how often.
final class RecordingLogger: ConfigDirectorLogger, @unchecked Sendable {
    // Guarded by `lock`: every access to `records` takes it.
    private var records: [(level: ConfigDirectorLogLevel, message: String)] = []
    private let lock = NSLock()

    let level: ConfigDirectorLogLevel = .debug

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        records.append((level, message))
    }

    /// The messages logged at `level`.
    func messages(at level: ConfigDirectorLogLevel) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return records.filter { $0.level == level }.map(\.message)
    }
}
