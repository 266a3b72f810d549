@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Testing

/// Records what a transport hands its owner.
final class EventRecorder: Sendable {
    private let recorded = Protected<[TransportEvent]>([])

    var handler: @Sendable (TransportEvent) -> Void {
        { [recorded] event in recorded.withLock { $0.append(event) } }
    }

    var events: [TransportEvent] { recorded.current }

    var states: [ConnectionState] {
        events.compactMap { event in
            if case .connectionState(let state) = event { return state }
            return nil
        }
    }

    var configSets: [ConfigSet] {
        events.compactMap { event in
            if case .configSet(let set) = event { return set }
            return nil
        }
    }

    /// The delays of every `.reconnecting` state, by attempt.
    var reconnects: [(attempt: Int, delay: Double)] {
        states.compactMap { state in
            if case .reconnecting(let attempt, let delay) = state { return (attempt, delay) }
            return nil
        }
    }
}

/// A logger that keeps every message.
struct RecordingLogger: ConfigDirectorLogger {
    struct Entry: Sendable {
        let level: ConfigDirectorLogLevel
        let message: String
        let error: String?
    }

    let level: ConfigDirectorLogLevel = .debug
    private let recorded = Protected<[Entry]>([])

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        let entry = Entry(level: level, message: message, error: error.map { "\($0)" })
        // Every line any test of the suite logs is scanned for the SDK key (issue 18): none may carry it.
        if entry.message.contains(Fixtures.sdkKey) || entry.error?.contains(Fixtures.sdkKey) == true {
            Issue.record("A \(level) log line carries the SDK key: \(entry.message) \(entry.error ?? "")")
        }
        recorded.withLock { $0.append(entry) }
    }

    var entries: [Entry] { recorded.current }

    func messages(at level: ConfigDirectorLogLevel) -> [String] {
        entries.filter { $0.level == level }.map(\.message)
    }

    /// Whether any message or error text contains `text`.
    func mentions(_ text: String) -> Bool {
        entries.contains { $0.message.contains(text) || ($0.error?.contains(text) ?? false) }
    }
}
