@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import Foundation
import TestSupport

/// An in-memory transport whose answers a test scripts: deliver a set on connect, hold, or fail.
///
/// Most tests drive the client through ConfigTesting's `InMemoryServer` (``ClientFixture`` without an
/// `answer`). This transport stays for what the server cannot express, being a server of values and not
/// a script of the wire: holding *every* connect (the server holds one initialize or context update at a
/// time and serves a network resume at once); refusing a connect with a given error (the server refuses
/// with its one 401); answering the next connect with a set of its own; reporting a connection state
/// (`report(_:)`: reconnecting, stopped); delivering while disconnected; and recording what the client
/// asked of its transport (every connect's context and reason, the disconnects, the close).
final class ScriptedTransport: Transport {
    enum Answer {
        /// Delivers the set from `connect`.
        case deliver(ConfigSet)
        /// Delivers nothing, as a stream that opened and stays silent.
        case hold
        /// Reports a fatal refusal from `connect`.
        case fail(ConfigDirectorError)
    }

    private struct State {
        var answers: [Answer] = []
        var defaultAnswer: Answer
        var connects: [(context: ConfigDirectorContext?, reason: ConnectReason)] = []
        var disconnectCount = 0
        var networkReturns = 0
        var isClosed = false
    }

    private let handler: @Sendable (TransportEvent) -> Void
    private let state: Protected<State>

    init(defaultAnswer: Answer, handler: @escaping @Sendable (TransportEvent) -> Void) {
        state = Protected(State(defaultAnswer: defaultAnswer))
        self.handler = handler
    }

    /// Sets the answer to every later connect without an answer of its own.
    func answerEveryConnect(_ answer: Answer) {
        state.withLock { $0.defaultAnswer = answer }
    }

    /// Queues the answer to the next connect.
    func answerNextConnect(_ answer: Answer) {
        state.withLock { $0.answers.append(answer) }
    }

    var contexts: [ConfigDirectorContext?] { state.withLock { $0.connects.map(\.context) } }
    var reasons: [ConnectReason] { state.withLock { $0.connects.map(\.reason) } }
    var disconnects: Int { state.withLock(\.disconnectCount) }
    /// How many times the client said the network may have returned.
    var networkReturns: Int { state.withLock(\.networkReturns) }
    var closed: Bool { state.withLock(\.isClosed) }

    func connect(context: ConfigDirectorContext?, reason: ConnectReason) {
        let answer = state.withLock { state -> Answer in
            state.connects.append((context, reason))
            return state.answers.isEmpty ? state.defaultAnswer : state.answers.removeFirst()
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
        state.withLock { $0.disconnectCount += 1 }
    }

    func close() {
        state.withLock { $0.isClosed = true }
    }

    func networkMayHaveReturned() {
        state.withLock { $0.networkReturns += 1 }
    }
}

/// Makes one ``ScriptedTransport`` and keeps it for the test to drive.
final class ScriptedTransportFactory: TransportFactory {
    private let defaultAnswer: ScriptedTransport.Answer
    private let made = Protected<(last: ScriptedTransport?, count: Int)>((nil, 0))

    init(answer: ScriptedTransport.Answer) {
        defaultAnswer = answer
    }

    func makeTransport(handler: @escaping @Sendable (TransportEvent) -> Void) -> any Transport {
        let transport = ScriptedTransport(defaultAnswer: defaultAnswer, handler: handler)
        made.withLock { $0 = (transport, $0.count + 1) }
        return transport
    }

    /// The transport made, once the client connected.
    var transport: ScriptedTransport? { made.current.last }
    /// How many transports were made.
    var transportsMade: Int { made.current.count }
}
