#if OpenFeature
import Combine
@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigOpenFeature
import ConfigTesting
import Foundation
import OpenFeature
import TestSupport
import ModelTestSupport

/// One provider event as a test compares it (OpenFeature's `ProviderEvent` is not `Sendable`).
struct SeenEvent: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case ready, error, configurationChanged, stale, reconciling, contextChanged
    }

    var kind: Kind
    var flagsChanged: [String]?
    var message: String?
    var errorCode: Int?

    init(_ event: ProviderEvent) {
        let details: ProviderEventDetails?
        switch event {
        case .ready(let received): (kind, details) = (.ready, received)
        case .error(let received): (kind, details) = (.error, received)
        case .configurationChanged(let received): (kind, details) = (.configurationChanged, received)
        case .stale(let received): (kind, details) = (.stale, received)
        case .reconciling(let received): (kind, details) = (.reconciling, received)
        case .contextChanged(let received): (kind, details) = (.contextChanged, received)
        }
        flagsChanged = details?.flagsChanged
        message = details?.message
        errorCode = details?.errorCode?.rawValue
    }

    var description: String { "\(kind)\(flagsChanged.map { "\($0)" } ?? "")" }
}

/// Records what `OpenFeatureAPI.observe()` delivers, from the moment it is created, and lets a test
/// wait, with a bound, until what it recorded meets a condition.
final class EventRecorder: @unchecked Sendable {  // `subscription` is set once in init; the rest is locked.
    private struct Waiter {
        var condition: @Sendable ([SeenEvent]) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var seen: [SeenEvent] = []
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Protected(State())
    private var subscription: AnyCancellable?

    init(_ api: OpenFeatureAPI) {
        subscription = api.observe().sink { [state] event in
            let seen = SeenEvent(event)
            let satisfied = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
                state.seen.append(seen)
                let ready = state.waiters.filter { $0.value.condition(state.seen) }
                for id in ready.keys { state.waiters[id] = nil }
                return ready.values.map(\.continuation)
            }
            for continuation in satisfied { continuation.resume(returning: true) }
        }
    }

    /// Every event recorded so far, in order.
    var events: [SeenEvent] { state.withLock { $0.seen } }

    /// The kinds of the events recorded so far, in order.
    var kinds: [SeenEvent.Kind] { events.map(\.kind) }

    /// Waits until the recorded events meet `condition`, for at most `seconds`.
    /// - Returns: Whether they did.
    func wait(within seconds: Double = 5, until condition: @escaping @Sendable ([SeenEvent]) -> Bool) async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let watchdog = Task { [state] in
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            let expired = state.withLock { $0.waiters.removeValue(forKey: id) }
            expired?.continuation.resume(returning: false)
        }
        defer { watchdog.cancel() }
        return await withCheckedContinuation { continuation in
            let met = state.withLock { state -> Bool in
                if condition(state.seen) { return true }
                state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                return false
            }
            if met { continuation.resume(returning: true) }
        }
    }

    /// Waits until `count` events of `kind` were recorded.
    func wait(for kind: SeenEvent.Kind, count: Int = 1, within seconds: Double = 5) async -> Bool {
        await wait(within: seconds) { events in events.filter { $0.kind == kind }.count >= count }
    }

    func cancel() {
        subscription?.cancel()
    }
}

#endif

#if OpenFeature
/// An `OpenFeatureAPI`, which is thread safe but not `Sendable`, carried into a task that registers a
/// provider or sets a context while the test drives the test client.
struct UncheckedAPI: @unchecked Sendable {
    let api: OpenFeatureAPI
}

/// A provider around a test client, on an `OpenFeatureAPI` of its own whose events are recorded from
/// the start. Call ``stop()`` when the test is done.
struct ProviderHarness {
    let testClient: TestClient
    let api = OpenFeatureAPI()
    let events: EventRecorder
    let provider: ConfigDirectorProvider

    /// OpenFeature's client for the API.
    var client: any Client { api.getClient() }

    init(values: [String: TestValue] = [:], timeout: Double = 3, logger: any ConfigDirectorLogger = RecordingLogger()) {
        testClient = makeTestClient(values: values, timeout: timeout, logger: logger)
        events = EventRecorder(api)
        provider = ConfigDirectorProvider(injectedClient: testClient.client)
    }

    /// Registers the provider with `setProviderAndWait`.
    func register(_ context: ImmutableContext? = ImmutableContext(targetingKey: "user-123")) async {
        await api.setProviderAndWait(provider: provider, initialContext: context)
    }

    /// Registers the provider in a task, for an initialization the test holds.
    func startRegistering() -> Task<Void, Never> {
        let shared = UncheckedAPI(api: api)
        let provider = provider
        return Task {
            await shared.api.setProviderAndWait(
                provider: provider, initialContext: ImmutableContext(targetingKey: "user-123"))
        }
    }

    /// Sets a context with `setEvaluationContextAndWait`.
    func setContext(targetingKey: String) async {
        await api.setEvaluationContextAndWait(evaluationContext: ImmutableContext(targetingKey: targetingKey))
    }

    func stop() {
        events.cancel()
        testClient.client.close()
    }
}
#endif
