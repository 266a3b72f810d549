@_spi(Internal) public import ConfigModel
internal import Foundation
internal import TestSupport
internal import Testing

/// A logger that keeps every line it is given: the one recording logger of the test suites.
///
/// `messages(at:)` are the messages alone; `lines(at:)` append the error's localized description as
/// `ConsoleLogger` writes it; `mentions(_:)` searches messages and errors. A logger made with
/// `forbidding:` records an issue for every line that carries one of the texts (an SDK key: issue 18).
/// `E2E_LOG=1` in the environment also prints every line, to debug a test.
public final class RecordingLogger: ConfigDirectorLogger {
    /// One line logged.
    public struct Entry: Sendable, Equatable {
        /// The line's level.
        public let level: ConfigDirectorLogLevel
        /// The message.
        public let message: String
        /// The error argument.
        public let error: (any Error)?

        /// An entry, as a test expects it.
        public init(level: ConfigDirectorLogLevel, message: String, error: (any Error)? = nil) {
            self.level = level
            self.message = message
            self.error = error
        }

        /// `String(describing:)` of the error argument, when there was one.
        public var errorDescription: String? { error.map { String(describing: $0) } }

        /// The message with the error's localized description appended as `ConsoleLogger` writes it.
        public var line: String { message + (error.map { ": \($0.localizedDescription)" } ?? "") }

        /// Equal level, message and error description.
        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.level == rhs.level && lhs.message == rhs.message && lhs.errorDescription == rhs.errorDescription
        }
    }

    /// The level the logger was made with.
    public let level: ConfigDirectorLogLevel
    private let forbidden: [String]
    private let recorded = Protected<[Entry]>([])
    private let echoes = ProcessInfo.processInfo.environment["E2E_LOG"] == "1"

    /// A logger of `level` that records an issue for any line that contains one of `forbidden`.
    public init(level: ConfigDirectorLogLevel = .debug, forbidding forbidden: [String] = []) {
        self.level = level
        self.forbidden = forbidden
    }

    /// Keeps the line.
    public func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        let entry = Entry(level: level, message: message, error: error)
        for text in forbidden where entry.message.contains(text) || entry.errorDescription?.contains(text) == true {
            Issue.record("A \(level) log line carries \(text): \(entry.message) \(entry.errorDescription ?? "")")
        }
        recorded.withLock { $0.append(entry) }
        if echoes { print("[\(level)] \(entry.line)") }
    }

    /// Every line so far, oldest first.
    public var entries: [Entry] { recorded.current }

    /// The lines logged at `level`, oldest first.
    public func entries(at level: ConfigDirectorLogLevel) -> [Entry] {
        entries.filter { $0.level == level }
    }

    /// Every message so far, oldest first.
    public var messages: [String] { entries.map(\.message) }

    /// The messages logged at `level`, oldest first.
    public func messages(at level: ConfigDirectorLogLevel) -> [String] {
        entries(at: level).map(\.message)
    }

    /// The lines logged at `level` as `ConsoleLogger` writes them (`message: description`), oldest first.
    public func lines(at level: ConfigDirectorLogLevel) -> [String] {
        entries(at: level).map(\.line)
    }

    /// Whether any message or error description contains `text`.
    public func mentions(_ text: String) -> Bool {
        entries.contains { $0.message.contains(text) || ($0.errorDescription?.contains(text) ?? false) }
    }
}

/// A logger that drops every line: at level `off` no message is even built; at a verbose level every
/// message is built (the code that builds it runs) and then dropped.
public struct SilentLogger: ConfigDirectorLogger {
    /// The level the logger was made with.
    public let level: ConfigDirectorLogLevel

    /// A silent logger of `level`.
    public init(level: ConfigDirectorLogLevel = .off) {
        self.level = level
    }

    /// Drops the line.
    public func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {}
}
