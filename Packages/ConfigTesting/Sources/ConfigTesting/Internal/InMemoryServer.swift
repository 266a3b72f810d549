@_spi(Internal) @_spi(Testing) internal import ConfigClient
@_spi(Internal) @_spi(Locking) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport

/// The in-memory server of a test client, which is also its client's transport.
///
/// It serves the stored values to every context: in full on each connect, then as the test changes
/// them, while connected. The test arms it to hold or fail the next `initialize` or `updateContext`;
/// `resumeNetwork` is always served at once. It starts no task and no timer: a held connect waits on
/// a continuation that a control, `disconnect`, `close`, or the cancellation of the connecting task
/// (the client's timeout) resumes.
///
/// Deliveries are made while the lock is held, so that updates reach the client in the order the test
/// made them; the client never calls its transport while holding its own lock.
final class InMemoryServer: ConnectReasonAwareTransport {
    /// What the next `initialize` or `updateContext` is armed to do.
    enum Arming {
        case serve
        case hold
        case fail
    }

    /// How a held connect ended.
    enum HoldEnd {
        /// The stored values were delivered.
        case completed
        /// The connection was refused with the error.
        case failed(ConfigDirectorError)
        /// The timeout, `disconnect`, `close` or a newer connect ended it with nothing delivered.
        case ended
    }

    /// The connect being held, or one that ended before its caller started waiting.
    struct Hold {
        var id: UInt64
        var reason: ConnectReason
        var continuation: CheckedContinuation<HoldEnd, Never>?
        var end: HoldEnd?
    }

    struct State {
        var values: [String: ServedValue]
        var initialization = Arming.serve
        var contextUpdate = Arming.serve
        var hold: Hold?
        var nextHoldID: UInt64 = 0
        /// Whether the client holds a connection that was served, so that changes are delivered.
        var isConnected = false
        var isClosed = false
        var contextUpdates: [ConfigDirectorContext] = []
        var handler: (@Sendable (TransportEvent) -> Void)?
    }

    private let logger: any ConfigDirectorLogger
    private let state: Locked<State>

    init(values: [String: ServedValue], logger: any ConfigDirectorLogger) {
        self.logger = logger
        state = Locked(State(values: values))
    }

    /// Starts delivering to `handler`, the client's.
    func attach(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.handler = handler
        }
    }

    // MARK: - Controls

    var contextUpdates: [ConfigDirectorContext] { state.withLock { $0.contextUpdates } }

    func setValue(_ value: ServedValue, for key: String) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.values[key] = value
            guard state.isConnected else { return }
            state.handler?(.configSet(ConfigSet(kind: .delta, configs: [key: value.configState(forKey: key)])))
        }
    }

    func removeValue(for key: String) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.values[key] = nil
            if state.isConnected { Self.deliverAllLocked(&state) }
        }
    }

    func replaceValues(_ values: [String: ServedValue]) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.values = values
            state.initialization = .serve
            state.contextUpdate = .serve
            if state.isConnected { Self.deliverAllLocked(&state) }
        }
    }

    func hold(_ reason: ConnectReason) {
        state.withLock { state in
            guard !state.isClosed else { return }
            Self.setArming(.hold, for: reason, in: &state)
        }
    }

    func complete(_ reason: ConnectReason) {
        state.withLock { state in
            guard !state.isClosed else { return }
            if let hold = state.hold, hold.end == nil, hold.reason == reason {
                Self.deliverAllLocked(&state)
                Self.endHoldLocked(&state, id: hold.id, with: .completed)
            } else if Self.arming(for: reason, in: state) == .hold {
                Self.setArming(.serve, for: reason, in: &state)
            }
        }
    }

    func fail(_ reason: ConnectReason) {
        state.withLock { state in
            guard !state.isClosed else { return }
            if let hold = state.hold, hold.end == nil, hold.reason == reason {
                let error = Self.refusal(for: reason)
                state.handler?(.connectionState(.failed(error)))
                Self.endHoldLocked(&state, id: hold.id, with: .failed(error))
            } else {
                Self.setArming(.fail, for: reason, in: &state)
            }
        }
    }

    // MARK: - Transport

    /// A connect whose reason is unknown is served at once, as `resumeNetwork` is.
    func connect(context: ConfigDirectorContext?, timeout: Double) async throws(ConfigDirectorError) {
        try await connect(context: context, timeout: timeout, reason: .networkResume)
    }

    func connect(
        context: ConfigDirectorContext?,
        timeout: Double,
        reason: ConnectReason
    ) async throws(ConfigDirectorError) {
        enum Start {
            case skipped
            case served
            case failed(ConfigDirectorError)
            case held(UInt64)
        }
        let start = state.withLock { state -> Start in
            // A connect cancelled before it ran belongs to an attempt that already ended.
            guard !state.isClosed, !Task.isCancelled else { return .skipped }
            Self.endHoldLocked(&state, id: nil, with: .ended)
            state.isConnected = false
            if reason != .networkResume { state.contextUpdates.append(context ?? ConfigDirectorContext()) }
            let arming = Self.arming(for: reason, in: state)
            Self.setArming(.serve, for: reason, in: &state)
            switch arming {
            case .serve:
                Self.deliverAllLocked(&state)
                return .served
            case .fail:
                let error = Self.refusal(for: reason)
                state.handler?(.connectionState(.failed(error)))
                return .failed(error)
            case .hold:
                let id = state.nextHoldID
                state.nextHoldID += 1
                state.hold = Hold(id: id, reason: reason)
                return .held(id)
            }
        }
        switch start {
        case .skipped, .served:
            return
        case .failed(let error):
            logger.debug("The test client's server refused the \(reason) connect, as armed.")
            throw error
        case .held(let id):
            logger.debug(
                "The test client's server holds the \(reason) connect until it is completed, failed or ended."
            )
            switch await waitForEnd(ofHold: id) {
            case .completed, .ended: return
            case .failed(let error): throw error
            }
        }
    }

    func disconnect() {
        state.withLock { state in
            state.isConnected = false
            Self.endHoldLocked(&state, id: nil, with: .ended)
        }
    }

    func close() {
        state.withLock { state in
            state.isClosed = true
            state.isConnected = false
            state.handler = nil
            Self.endHoldLocked(&state, id: nil, with: .ended)
        }
    }

    // MARK: - Holding

    private func waitForEnd(ofHold id: UInt64) async -> HoldEnd {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    guard var hold = state.hold, hold.id == id else {
                        return continuation.resume(returning: .ended)
                    }
                    if let end = hold.end {
                        state.hold = nil
                        return continuation.resume(returning: end)
                    }
                    hold.continuation = continuation
                    state.hold = hold
                }
            }
        } onCancel: {
            // The client cancels the connecting task when its timeout passes first.
            state.withLock { Self.endHoldLocked(&$0, id: id, with: .ended) }
        }
    }

    /// Ends the hold `id` (any hold when `nil`) that has not ended yet: resumes its waiter, or keeps
    /// the end for the waiter still to come.
    private static func endHoldLocked(_ state: inout State, id: UInt64?, with end: HoldEnd) {
        guard var hold = state.hold, hold.end == nil, id == nil || hold.id == id else { return }
        if let continuation = hold.continuation {
            state.hold = nil
            continuation.resume(returning: end)
        } else {
            hold.end = end
            state.hold = hold
        }
    }

    // MARK: - Helpers

    private static func deliverAllLocked(_ state: inout State) {
        state.isConnected = true
        let configs = Dictionary(uniqueKeysWithValues: state.values.map { ($0, $1.configState(forKey: $0)) })
        state.handler?(.configSet(ConfigSet(kind: .full, configs: configs)))
    }

    private static func arming(for reason: ConnectReason, in state: State) -> Arming {
        switch reason {
        case .initialization: state.initialization
        case .contextUpdate: state.contextUpdate
        case .networkResume: .serve
        }
    }

    private static func setArming(_ arming: Arming, for reason: ConnectReason, in state: inout State) {
        switch reason {
        case .initialization: state.initialization = arming
        case .contextUpdate: state.contextUpdate = arming
        case .networkResume: break
        }
    }

    /// The error of a refused connect: what the service answers to an invalid client SDK key.
    private static func refusal(for reason: ConnectReason) -> ConfigDirectorError {
        let control = reason == .contextUpdate ? "failContextUpdate()" : "failInitialization()"
        return .connectionFailed(message: "the test client refused the connection (\(control))", statusCode: 401)
    }
}
