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

    /// The first outcome of a connect (`.open`, `.failed` or `.stopped`) among the states after the first
    /// `count`, or `nil` when there is none yet.
    func outcome(after count: Int) -> ConnectionState? {
        states.dropFirst(count).first { state in
            if case .reconnecting = state { return false }
            return true
        }
    }
}

/// Connects `transport` and waits, bounded by ``eventually(_:)``, for the outcome that the transport reports
/// for this connect: the first `.open`, `.failed` or `.stopped` event recorded after the call.
///
/// A connection starts only once the previous one has ended, so when this returns for a second connect,
/// everything the previous connection would still have done (a retry, a reconnect, another request) has
/// shown: a test that checks that something did not happen can wait for this point.
/// - Returns: The outcome, or `nil` (with an issue recorded) when none came in time.
@discardableResult
func connectAndAwaitOutcome(
    _ transport: any Transport,
    context: ConfigDirectorContext? = nil,
    reason: ConnectReason = .initialization,
    recorder: EventRecorder,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ConnectionState? {
    let count = recorder.states.count
    transport.connect(context: context, reason: reason)
    let reported = await eventually { recorder.outcome(after: count) != nil }
    #expect(reported, "the connect reported no .open, .failed or .stopped", sourceLocation: sourceLocation)
    return recorder.outcome(after: count)
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
