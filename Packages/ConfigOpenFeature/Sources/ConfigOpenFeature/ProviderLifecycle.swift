#if OpenFeature
internal import Combine  // Apple's Combine; on Linux the OpenFeature kit's shim over OpenCombine
@_spi(Internal) internal import ConfigClient
@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import OpenFeature

/// What the provider runs on: the client, the status tracker, and the relay of the client's events.
///
/// OpenFeature calls `initialize` and `onContextSet` one after the other but does not wait for their
/// futures, so they overlap. Their connects reach the client one at a time, in the order OpenFeature
/// made them: each waits for the one before it, and a context change superseded before its turn never
/// reaches the client. Only the newest operation reports how it ended, so the client always ends on
/// the newest context and nothing comes from a superseded change. `ready` is reported once, when the
/// first config state arrives, whichever operation delivered it.
///
/// Every event is sent under one lock, together with the reads it is decided from, so that a
/// lifecycle call and a client event arriving at once cannot report out of order; nothing is sent
/// after ``close()``.
final class ProviderLifecycle: Sendable {
    /// The operations that connect the client.
    enum Operation {
        case initialization, contextUpdate
    }

    private struct State {
        var isClosed = false
        /// The `initialize` and `onContextSet` calls not yet finished; while any is, they report the
        /// client's `ready` themselves.
        var operationsInFlight = 0
        /// The number of the newest operation begun; only the newest reports how it ended.
        var newestOperation = 0
        /// The task of the operation begun last, which the next one waits for.
        var lastOperation: Task<Void, Never>?
        /// Whether `ready` was reported: it is reported once, with the first config state.
        var hasReportedReady = false
        var relay: Task<Void, Never>?
    }

    let client: ConfigDirectorClient
    let tracker = ProviderStatusTracker()
    private let ownsClient: Bool
    private let state = Locked(State())

    init(client: ConfigDirectorClient, ownsClient: Bool) {
        self.client = client
        self.ownsClient = ownsClient
        let events = client.events
        let relay = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                self.relay(event)
            }
        }
        state.withLock { $0.relay = relay }
    }

    /// Runs a connect of the client after the operations begun before it, and resolves the future
    /// after its outcome was sent. A context update that a newer one superseded before its turn is
    /// skipped; an initialization always runs.
    func run(
        _ operation: Operation,
        connect: @escaping @Sendable (ConfigDirectorClient) async -> Void
    ) -> Future<Void, Never> {
        Future { promise in
            let resolve = UncheckedPromise(promise)
            self.state.withLock { state in
                guard !state.isClosed else { return resolve() }
                state.operationsInFlight += 1
                state.newestOperation += 1
                let number = state.newestOperation
                if operation == .contextUpdate { self.tracker.send(.reconciling()) }
                let previous = state.lastOperation
                state.lastOperation = Task {
                    await previous?.value
                    if operation == .initialization || self.isNewest(number) { await connect(self.client) }
                    self.finish(operation, number: number)
                    resolve()
                }
            }
        }
    }

    private func isNewest(_ number: Int) -> Bool {
        state.withLock { !$0.isClosed && $0.newestOperation == number }
    }

    private func finish(_ operation: Operation, number: Int) {
        state.withLock { state in
            state.operationsInFlight -= 1
            guard !state.isClosed else { return }
            let isNewest = number == state.newestOperation
            if client.isReady, !state.hasReportedReady, isNewest || operation == .initialization {
                // The first config state: `ready`, as OpenFeature's handlers of an initialization that
                // ended normally expect (spec 5.3.1), even when a context change followed it. A newer
                // change still in flight is reconciling again.
                state.hasReportedReady = true
                tracker.send(.ready())
                if !isNewest { tracker.send(.reconciling()) }
            }
            guard isNewest else { return }
            if client.isReady {
                if operation == .contextUpdate { tracker.send(.contextChanged()) }
                return
            }
            if let refusal = client.refusal {
                tracker.send(
                    .error(
                        ProviderEventDetails(
                            message: "ConfigDirector refused the connection for good, so the provider stopped "
                                + "connecting: \(refusal.description). Check the client SDK key; a later context "
                                + "change connects again.",
                            errorCode: .providerFatal
                        )))
                return
            }
            let message =
                switch operation {
                case .initialization: "The ConfigDirector client did not become ready during initialization."
                case .contextUpdate: "The ConfigDirector client did not become ready for the new context."
                }
            tracker.send(.error(ProviderEventDetails(message: message, errorCode: .general)))
            if client.valueSource != .none { tracker.send(.stale()) }
        }
    }

    /// Reports one of the client's events.
    private func relay(_ event: ClientEvent) {
        state.withLock { state in
            guard !state.isClosed else { return }
            switch event {
            case .configsUpdated(let update):
                tracker.send(
                    .configurationChanged(ProviderEventDetails(flagsChanged: update.keys + update.removedKeys)))
                if client.valueSource == .keptValues, tracker.status != .stale { tracker.send(.stale()) }
            case .ready:
                // A ready that an operation is waiting for is that operation's to report; one that came
                // later (a background retry, a resume) reports `ready` only after an error or stale values.
                guard state.operationsInFlight == 0, tracker.status != .ready, client.isReady else { return }
                state.hasReportedReady = true
                tracker.send(.ready())
            case .contextUpdated:
                break
            }
        }
    }

    func close() {
        let (wasOpen, relay) = state.withLock { state in
            defer {
                state.isClosed = true
                state.relay = nil
            }
            return (!state.isClosed, state.relay)
        }
        guard wasOpen else { return }
        relay?.cancel()
        if ownsClient { client.close() }
    }
}

/// A future's promise, which OpenFeature calls from any thread, carried into the task that fulfils it.
private struct UncheckedPromise: @unchecked Sendable {  // Future's promise is thread safe, not Sendable.
    private let promise: (Result<Void, Never>) -> Void

    init(_ promise: @escaping (Result<Void, Never>) -> Void) {
        self.promise = promise
    }

    func callAsFunction() {
        promise(.success(()))
    }
}
#endif
