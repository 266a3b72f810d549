@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import Foundation

/// An in-memory transport whose answers a test scripts: deliver a set on connect, hold, or fail.
///
/// Most tests drive the client through ConfigTesting's `InMemoryServer` (``ClientFixture`` without an
/// `answer`). This transport stays for what the server cannot express, being a server of values and not
/// a script of the wire: holding *every* connect (the server holds one initialize or context update at a
/// time and serves a network resume at once); refusing a connect with a given error (the server refuses
/// with its one 401); answering the next connect with a set of its own; reporting a connection state
/// (`report(_:)`: reconnecting, stopped); delivering while disconnected; and recording what the client
/// asked of its transport (every connect's context and reason, the disconnects, the close).
final class ScriptedTransport: Transport, @unchecked Sendable {
    enum Answer {
        /// Delivers the set from `connect`.
        case deliver(ConfigSet)
        /// Delivers nothing, as a stream that opened and stays silent.
        case hold
        /// Reports a fatal refusal from `connect`.
        case fail(ConfigDirectorError)
    }

    // Every stored property but `handler` (immutable) is guarded by `lock`.
    private let lock = NSLock()
    private let handler: @Sendable (TransportEvent) -> Void
    private var answers: [Answer] = []
    private var defaultAnswer: Answer
    private(set) var connects: [(context: ConfigDirectorContext?, reason: ConnectReason)] = []
    private(set) var disconnectCount = 0
    private(set) var isClosed = false

    init(defaultAnswer: Answer, handler: @escaping @Sendable (TransportEvent) -> Void) {
        self.defaultAnswer = defaultAnswer
        self.handler = handler
    }

    /// Sets the answer to every later connect without an answer of its own.
    func answerEveryConnect(_ answer: Answer) {
        lock.withLock { defaultAnswer = answer }
    }

    /// Queues the answer to the next connect.
    func answerNextConnect(_ answer: Answer) {
        lock.withLock { answers.append(answer) }
    }

    var contexts: [ConfigDirectorContext?] { lock.withLock { connects.map(\.context) } }
    var reasons: [ConnectReason] { lock.withLock { connects.map(\.reason) } }
    var disconnects: Int { lock.withLock { disconnectCount } }
    var closed: Bool { lock.withLock { isClosed } }

    func connect(context: ConfigDirectorContext?, reason: ConnectReason) {
        let answer = lock.withLock { () -> Answer in
            connects.append((context, reason))
            return answers.isEmpty ? defaultAnswer : answers.removeFirst()
        }
        switch answer {
        case .deliver(let set): handler(.configSet(set))
        case .hold: break
        case .fail(let error): handler(.connectionState(.failed(error)))
        }
    }

    /// Delivers a set as the server would push it.
    func deliver(_ set: ConfigSet) {
        handler(.configSet(set))
    }

    /// Reports a change of the connection's state, as the HTTP transports do.
    func report(_ state: ConnectionState) {
        handler(.connectionState(state))
    }

    func disconnect() {
        lock.withLock { disconnectCount += 1 }
    }

    func close() {
        lock.withLock { isClosed = true }
    }
}

/// Makes one ``ScriptedTransport`` and keeps it for the test to drive.
final class ScriptedTransportFactory: TransportFactory, @unchecked Sendable {
    // `made` and `makeCount` are guarded by `lock`.
    private let lock = NSLock()
    private let defaultAnswer: ScriptedTransport.Answer
    private var made: ScriptedTransport?
    private var makeCount = 0

    init(answer: ScriptedTransport.Answer) {
        defaultAnswer = answer
    }

    func makeTransport(handler: @escaping @Sendable (TransportEvent) -> Void) -> any Transport {
        let transport = ScriptedTransport(defaultAnswer: defaultAnswer, handler: handler)
        lock.withLock {
            made = transport
            makeCount += 1
        }
        return transport
    }

    /// The transport made, once the client connected.
    var transport: ScriptedTransport? { lock.withLock { made } }
    /// How many transports were made.
    var transportsMade: Int { lock.withLock { makeCount } }
}
