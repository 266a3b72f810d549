@_spi(Internal) import ConfigModel
import Foundation

/// A logger that keeps every message, at every level; `E2E_LOG=1` also prints them, to debug a test.
final class RecordingLogger: ConfigDirectorLogger {
    struct Entry: Sendable {
        var level: ConfigDirectorLogLevel
        var message: String
        /// The error argument's description, when there was one.
        var error: String?
    }

    let level: ConfigDirectorLogLevel = .debug
    private let entries = Protected<[Entry]>([])
    private let echoes = ProcessInfo.processInfo.environment["E2E_LOG"] == "1"

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        entries.withLock { $0.append(Entry(level: level, message: message, error: error?.localizedDescription)) }
        if echoes { print("[\(level)] \(message)\(error.map { " (\($0))" } ?? "")") }
    }

    /// The messages logged at `level`, oldest first.
    func messages(at level: ConfigDirectorLogLevel) -> [String] {
        entries.current.filter { $0.level == level }.map(\.message)
    }

    /// The messages logged at `level`, each with its error's description appended as the console
    /// logger writes it (`message: description`), oldest first.
    func lines(at level: ConfigDirectorLogLevel) -> [String] {
        entries.current.filter { $0.level == level }.map { entry in
            entry.message + (entry.error.map { ": \($0)" } ?? "")
        }
    }

    /// Every message, oldest first.
    var allMessages: [String] { entries.current.map(\.message) }
}
