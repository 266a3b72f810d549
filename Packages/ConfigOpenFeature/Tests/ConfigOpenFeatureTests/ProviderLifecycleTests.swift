#if OpenFeature
@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) @testable import ConfigOpenFeature
import ConfigTesting
import OpenFeature
import Testing

/// Status and events through OpenFeature's API: `setProviderAndWait`, `observe()` and `getProviderStatus()`.
@Suite("Provider status and events", .timeLimit(.minutes(1)))
struct ProviderLifecycleTests {
    private let context = ImmutableContext(targetingKey: "user-123")

    @Test("initialize reports ready before setProviderAndWait returns, and a new subscriber gets it replayed")
    func initializeReportsReady() async {
        let testClient = makeTestClient(values: ["new-checkout": true])
        defer { testClient.client.close() }
        let api = OpenFeatureAPI()
        let events = EventRecorder(api)
        defer { events.cancel() }
        let provider = ConfigDirectorProvider(injectedClient: testClient.client)
        #expect(provider.status == .notReady)

        await api.setProviderAndWait(provider: provider, initialContext: context)

        #expect(api.getProviderStatus() == .ready)
        #expect(api.getClient().getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(await events.wait(for: .ready))
        #expect(testClient.contextUpdates == [ConfigDirectorContext(id: "user-123")])

        let late = EventRecorder(api)
        defer { late.cancel() }
        #expect(await late.wait(for: .ready))
        #expect(late.kinds == [.ready])
    }

    @Test("a failed initialization reports error with .general and a message, never fatal; flags use the defaults")
    func failedInitializationReportsError() async {
        let testClient = makeTestClient(values: ["new-checkout": true], logger: RecordingLogger())
        defer { testClient.client.close() }
        testClient.failInitialization()
        let api = OpenFeatureAPI()
        let events = EventRecorder(api)
        defer { events.cancel() }

        await api.setProviderAndWait(
            provider: ConfigDirectorProvider(injectedClient: testClient.client), initialContext: context)

        #expect(api.getProviderStatus() == .error)
        #expect(!api.getClient().getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(await events.wait(for: .error))
        let error = events.events.first { $0.kind == .error }
        #expect(error?.errorCode == ErrorCode.general.rawValue)
        #expect(error?.message?.contains("did not become ready during initialization") == true)
        #expect(!events.kinds.contains(.stale))
    }

    @Test("a held initialization keeps the provider notReady with default values until it completes")
    func heldInitialization() async {
        let testClient = makeTestClient(values: ["new-checkout": true])
        defer { testClient.client.close() }
        testClient.holdInitialization()
        let api = OpenFeatureAPI()
        let provider = ConfigDirectorProvider(injectedClient: testClient.client)
        let shared = UncheckedAPI(api: api)
        let registration = Task { await shared.api.setProviderAndWait(provider: provider, initialContext: nil) }

        #expect(await eventually { testClient.contextUpdates.count == 1 })
        #expect(provider.status == .notReady)
        #expect(!api.getClient().getBooleanValue(key: "new-checkout", defaultValue: false))

        testClient.completeInitialization()
        await registration.value
        #expect(provider.status == .ready)
        #expect(api.getClient().getBooleanValue(key: "new-checkout", defaultValue: false))
    }

    @Test("a timed-out initialization reports error; the next ready (a resume) reports ready once")
    func timeoutThenReady() async {
        let testClient = makeTestClient(values: ["new-checkout": true], timeout: 0.2, logger: RecordingLogger())
        defer { testClient.client.close() }
        testClient.holdInitialization()
        let api = OpenFeatureAPI()
        let events = EventRecorder(api)
        defer { events.cancel() }

        await api.setProviderAndWait(
            provider: ConfigDirectorProvider(injectedClient: testClient.client), initialContext: context)
        #expect(api.getProviderStatus() == .error)
        #expect(!api.getClient().getBooleanValue(key: "new-checkout", defaultValue: false))

        await testClient.client.resumeNetwork()
        #expect(await events.wait(for: .ready))
        #expect(api.getProviderStatus() == .ready)
        #expect(api.getClient().getBooleanValue(key: "new-checkout", defaultValue: false))

        // A later change is reported after anything the resume would have reported.
        testClient.setValue(false, for: "new-checkout")
        #expect(await events.wait { $0.last?.flagsChanged == ["new-checkout"] })
        #expect(events.kinds.filter { $0 == .ready }.count == 1)
        #expect(events.kinds.first { $0 != .configurationChanged } == .error)
    }

    @Test("a reconnect of a ready provider reports no lifecycle event")
    func reconnectWhileReady() async {
        let testClient = makeTestClient(values: ["new-checkout": true])
        defer { testClient.client.close() }
        let api = OpenFeatureAPI()
        let events = EventRecorder(api)
        defer { events.cancel() }
        await api.setProviderAndWait(
            provider: ConfigDirectorProvider(injectedClient: testClient.client), initialContext: context)
        #expect(await events.wait(for: .ready))

        await testClient.client.resumeNetwork()
        testClient.setValue(false, for: "new-checkout")

        #expect(await events.wait { $0.last?.flagsChanged == ["new-checkout"] })
        #expect(events.kinds.filter { $0 != .configurationChanged } == [.ready])
        #expect(api.getProviderStatus() == .ready)
    }

    @Test("every update reports configurationChanged with its keys, then the keys a full update removed")
    func configurationChanged() async {
        let testClient = makeTestClient(values: ["a": 1, "b": 2])
        defer { testClient.client.close() }
        let api = OpenFeatureAPI()
        let events = EventRecorder(api)
        defer { events.cancel() }
        await api.setProviderAndWait(
            provider: ConfigDirectorProvider(injectedClient: testClient.client), initialContext: context)
        #expect(await events.wait(for: .configurationChanged))
        #expect(Set(events.events.first { $0.kind == .configurationChanged }?.flagsChanged ?? []) == ["a", "b"])

        testClient.setValue(3, for: "a")
        #expect(await events.wait(for: .configurationChanged, count: 2))
        testClient.removeValue(for: "b")
        #expect(await events.wait(for: .configurationChanged, count: 3))

        let changes = events.events.filter { $0.kind == .configurationChanged }.map(\.flagsChanged)
        #expect(changes.dropFirst() == [["a"], ["a", "b"]])
        #expect(api.getClient().getIntegerValue(key: "a", defaultValue: 0) == 3)
        #expect(api.getClient().getIntegerValue(key: "b", defaultValue: -1) == -1)
    }

    @Test("onContextSet reports reconciling then contextChanged, and updates the client's context")
    func contextChange() async {
        let testClient = makeTestClient(values: ["new-checkout": true])
        defer { testClient.client.close() }
        let api = OpenFeatureAPI()
        let events = EventRecorder(api)
        defer { events.cancel() }
        await api.setProviderAndWait(
            provider: ConfigDirectorProvider(injectedClient: testClient.client), initialContext: context)

        await api.setEvaluationContextAndWait(evaluationContext: ImmutableContext(targetingKey: "user-456"))

        #expect(api.getProviderStatus() == .ready)
        #expect(testClient.contextUpdates.last == ConfigDirectorContext(id: "user-456"))
        #expect(await events.wait(for: .contextChanged))
        let lifecycle = events.kinds.filter { $0 != .configurationChanged }
        #expect(lifecycle == [.ready, .reconciling, .contextChanged])
    }

    @Test("a held context update is reconciling and keeps serving the current values until it completes")
    func heldContextChange() async {
        let testClient = makeTestClient(values: ["new-checkout": true])
        defer { testClient.client.close() }
        let api = OpenFeatureAPI()
        await api.setProviderAndWait(
            provider: ConfigDirectorProvider(injectedClient: testClient.client), initialContext: context)
        testClient.holdContextUpdate()

        let shared = UncheckedAPI(api: api)
        let update = Task {
            await shared.api.setEvaluationContextAndWait(evaluationContext: ImmutableContext(targetingKey: "user-456"))
        }
        #expect(await eventually { testClient.contextUpdates.count == 2 })
        #expect(api.getProviderStatus() == .reconciling)
        #expect(api.getClient().getBooleanValue(key: "new-checkout", defaultValue: false))

        testClient.completeContextUpdate()
        await update.value
        #expect(api.getProviderStatus() == .ready)
    }

    // Issue 14's rule: every connect clears isReady, and a refused one leaves it cleared.
    @Test("a context update that cannot connect reports error then stale, and keeps serving the current values")
    func failedContextChange() async {
        let testClient = makeTestClient(values: ["new-checkout": true], logger: RecordingLogger())
        defer { testClient.client.close() }
        let api = OpenFeatureAPI()
        let events = EventRecorder(api)
        defer { events.cancel() }
        await api.setProviderAndWait(
            provider: ConfigDirectorProvider(injectedClient: testClient.client), initialContext: context)
        testClient.failContextUpdate()

        await api.setEvaluationContextAndWait(evaluationContext: ImmutableContext(targetingKey: "user-456"))

        #expect(api.getProviderStatus() == .stale)
        #expect(api.getClient().getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(await events.wait(for: .stale))
        #expect(events.kinds.filter { $0 != .configurationChanged } == [.ready, .reconciling, .error, .stale])
        let error = events.events.first { $0.kind == .error }
        #expect(error?.errorCode == ErrorCode.general.rawValue)
        #expect(error?.message?.contains("new context") == true)
    }

    @Test("after close nothing more is reported, including by an initialization in flight")
    func nothingAfterClose() async {
        let testClient = makeTestClient(values: ["new-checkout": true])
        defer { testClient.client.close() }
        testClient.holdInitialization()
        let api = OpenFeatureAPI()
        let events = EventRecorder(api)
        defer { events.cancel() }
        let provider = ConfigDirectorProvider(injectedClient: testClient.client)
        let shared = UncheckedAPI(api: api)
        let registration = Task {
            await shared.api.setProviderAndWait(
                provider: provider, initialContext: ImmutableContext(targetingKey: "user-123"))
        }
        #expect(await eventually { testClient.contextUpdates.count == 1 })

        provider.close()
        provider.close()
        testClient.completeInitialization()
        await registration.value
        testClient.setValue(false, for: "new-checkout")
        await api.setEvaluationContextAndWait(evaluationContext: ImmutableContext(targetingKey: "user-456"))

        #expect(provider.status == .notReady)
        #expect(events.events.isEmpty)
        // The client was given, so it is still open: it serves the values it received.
        #expect(testClient.client.isReady)
        #expect(testClient.client.value(for: "new-checkout", default: true) == false)
    }
}
#endif
