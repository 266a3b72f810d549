@_spi(Internal) import ConfigModel
import Foundation

/// A logger that keeps every message, at every level.
final class RecordingLogger: ConfigDirectorLogger, @unchecked Sendable {
    // `entries` is guarded by `lock`.
    private let lock = NSLock()
    private var entries: [(level: ConfigDirectorLogLevel, message: String)] = []
    let level: ConfigDirectorLogLevel = .debug

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        let line = error.map { "\(message): \($0.localizedDescription)" } ?? message
        lock.withLock { entries.append((level, line)) }
    }

    func messages(at level: ConfigDirectorLogLevel) -> [String] {
        lock.withLock { entries.filter { $0.level == level }.map(\.message) }
    }
}
