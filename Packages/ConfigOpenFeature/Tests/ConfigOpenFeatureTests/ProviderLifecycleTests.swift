#if OpenFeature
@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) @testable import ConfigOpenFeature
import ConfigTesting
import OpenFeature
import Testing
import TestSupport

/// Status and events through OpenFeature's API: `setProviderAndWait`, `observe()` and `getProviderStatus()`.
@Suite("Provider status and events", .timeLimit(.minutes(1)))
struct ProviderLifecycleTests {
    @Test("initialize reports ready before setProviderAndWait returns, and a new subscriber gets it replayed")
    func initializeReportsReady() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        #expect(harness.provider.status == .notReady)

        await harness.register()

        #expect(harness.api.getProviderStatus() == .ready)
        #expect(harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(await harness.events.wait(for: .ready))
        #expect(harness.testClient.contextUpdates == [ConfigDirectorContext(id: "user-123")])

        let late = EventRecorder(harness.api)
        defer { late.cancel() }
        #expect(await late.wait(for: .ready))
        #expect(late.kinds == [.ready])
    }

    @Test("a refused SDK key reports error with .providerFatal and a message naming the cause: the status is fatal")
    func refusedKeyIsFatal() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        harness.testClient.failInitialization()

        await harness.register()

        #expect(harness.api.getProviderStatus() == .fatal)
        #expect(!harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(await harness.events.wait(for: .error))
        let error = harness.events.events.first { $0.kind == .error }
        #expect(error?.errorCode == ErrorCode.providerFatal.rawValue)
        #expect(error?.message?.contains("refused the connection for good") == true)
        #expect(error?.message?.contains("HTTP 401") == true)
        #expect(!harness.events.kinds.contains(.stale))

        // A later context change connects again and brings the provider back.
        await harness.setContext(targetingKey: "user-456")
        #expect(harness.api.getProviderStatus() == .ready)
        #expect(harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(await harness.events.wait(for: .contextChanged))
        #expect(
            harness.events.kinds.filter { $0 != .configurationChanged } == [
                .error, .reconciling, .ready, .contextChanged,
            ])
    }

    @Test("a timed-out initialization reports error with .general, not fatal")
    func timedOutInitializationIsNotFatal() async {
        let harness = ProviderHarness(values: ["new-checkout": true], timeout: 0.2)
        defer { harness.stop() }
        harness.testClient.holdInitialization()

        await harness.register()

        #expect(harness.api.getProviderStatus() == .error)
        #expect(await harness.events.wait(for: .error))
        let error = harness.events.events.first { $0.kind == .error }
        #expect(error?.errorCode == ErrorCode.general.rawValue)
        #expect(error?.message?.contains("did not become ready during initialization") == true)
    }

    @Test("a held initialization keeps the provider notReady with default values until it completes")
    func heldInitialization() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        harness.testClient.holdInitialization()
        let registration = harness.startRegistering()

        #expect(await eventually { harness.testClient.contextUpdates.count == 1 })
        #expect(harness.provider.status == .notReady)
        #expect(!harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))

        harness.testClient.completeInitialization()
        await registration.value
        #expect(harness.provider.status == .ready)
        #expect(harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))
    }

    @Test("a timed-out initialization reports error; the next ready (a resume) reports ready once")
    func timeoutThenReady() async {
        let harness = ProviderHarness(values: ["new-checkout": true], timeout: 0.2)
        defer { harness.stop() }
        harness.testClient.holdInitialization()

        await harness.register()
        #expect(harness.api.getProviderStatus() == .error)
        #expect(!harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))

        await harness.testClient.client.resumeNetwork()
        #expect(await harness.events.wait(for: .ready))
        #expect(harness.api.getProviderStatus() == .ready)
        #expect(harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))

        // A later change is reported after anything the resume would have reported.
        harness.testClient.setValue(false, for: "new-checkout")
        #expect(await harness.events.wait { $0.last?.flagsChanged == ["new-checkout"] })
        #expect(harness.events.kinds.filter { $0 == .ready }.count == 1)
        #expect(harness.events.kinds.first { $0 != .configurationChanged } == .error)
    }

    @Test("a reconnect of a ready provider reports no lifecycle event")
    func reconnectWhileReady() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        await harness.register()
        #expect(await harness.events.wait(for: .ready))

        await harness.testClient.client.resumeNetwork()
        harness.testClient.setValue(false, for: "new-checkout")

        #expect(await harness.events.wait { $0.last?.flagsChanged == ["new-checkout"] })
        #expect(harness.events.kinds.filter { $0 != .configurationChanged } == [.ready])
        #expect(harness.api.getProviderStatus() == .ready)
    }

    @Test("every update reports configurationChanged with its keys, then the keys a full update removed")
    func configurationChanged() async {
        let harness = ProviderHarness(values: ["a": 1, "b": 2])
        defer { harness.stop() }
        await harness.register()
        let events = harness.events
        #expect(await events.wait(for: .configurationChanged))
        #expect(Set(events.events.first { $0.kind == .configurationChanged }?.flagsChanged ?? []) == ["a", "b"])

        harness.testClient.setValue(3, for: "a")
        #expect(await events.wait(for: .configurationChanged, count: 2))
        harness.testClient.removeValue(for: "b")
        #expect(await events.wait(for: .configurationChanged, count: 3))

        let changes = events.events.filter { $0.kind == .configurationChanged }.map(\.flagsChanged)
        #expect(changes.dropFirst() == [["a"], ["a", "b"]])
        #expect(harness.client.getIntegerValue(key: "a", defaultValue: 0) == 3)
        #expect(harness.client.getIntegerValue(key: "b", defaultValue: -1) == -1)
    }

    @Test("onContextSet reports reconciling then contextChanged, and updates the client's context")
    func contextChange() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        await harness.register()

        await harness.setContext(targetingKey: "user-456")

        #expect(harness.api.getProviderStatus() == .ready)
        #expect(harness.testClient.contextUpdates.last == ConfigDirectorContext(id: "user-456"))
        #expect(await harness.events.wait(for: .contextChanged))
        let lifecycle = harness.events.kinds.filter { $0 != .configurationChanged }
        #expect(lifecycle == [.ready, .reconciling, .contextChanged])
    }

    @Test("a held context update is reconciling and keeps serving the current values until it completes")
    func heldContextChange() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        await harness.register()
        harness.testClient.holdContextUpdate()

        let shared = UncheckedAPI(api: harness.api)
        let update = Task {
            await shared.api.setEvaluationContextAndWait(evaluationContext: ImmutableContext(targetingKey: "user-456"))
        }
        #expect(await eventually { harness.testClient.contextUpdates.count == 2 })
        #expect(harness.api.getProviderStatus() == .reconciling)
        #expect(harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))

        harness.testClient.completeContextUpdate()
        await update.value
        #expect(harness.api.getProviderStatus() == .ready)
    }

    // Issue 14's rule: every connect clears isReady, and a refused one leaves it cleared.
    @Test("a context update refused for good reports error with .providerFatal, and keeps serving the current values")
    func refusedContextChange() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        await harness.register()
        harness.testClient.failContextUpdate()

        await harness.setContext(targetingKey: "user-456")

        #expect(harness.api.getProviderStatus() == .fatal)
        #expect(harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(await harness.events.wait(for: .error))
        #expect(harness.events.kinds.filter { $0 != .configurationChanged } == [.ready, .reconciling, .error])
        let error = harness.events.events.first { $0.kind == .error }
        #expect(error?.errorCode == ErrorCode.providerFatal.rawValue)
        #expect(error?.message?.contains("a later context change connects again") == true)
    }

    @Test(
        "a context update that times out reports error with .general then stale, and keeps serving the current values")
    func timedOutContextChange() async {
        let harness = ProviderHarness(values: ["new-checkout": true], timeout: 0.2)
        defer { harness.stop() }
        await harness.register()
        harness.testClient.holdContextUpdate()

        await harness.setContext(targetingKey: "user-456")

        #expect(harness.api.getProviderStatus() == .stale)
        #expect(harness.client.getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(await harness.events.wait(for: .stale))
        #expect(harness.events.kinds.filter { $0 != .configurationChanged } == [.ready, .reconciling, .error, .stale])
        let error = harness.events.events.first { $0.kind == .error }
        #expect(error?.errorCode == ErrorCode.general.rawValue)
        #expect(error?.message?.contains("new context") == true)
    }

    @Test("a context change made while initialize is held ends with one ready, then contextChanged for the newest")
    func readyAfterSupersededInitialization() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        harness.testClient.holdInitialization()
        let registration = harness.startRegistering()
        #expect(await eventually { harness.testClient.contextUpdates.count == 1 })
        let shared = UncheckedAPI(api: harness.api)
        let update = Task {
            await shared.api.setEvaluationContextAndWait(evaluationContext: ImmutableContext(targetingKey: "user-456"))
        }
        #expect(await harness.events.wait(for: .reconciling))

        harness.testClient.completeInitialization()
        await registration.value
        await update.value

        #expect(harness.api.getProviderStatus() == .ready)
        #expect(await harness.events.wait(for: .contextChanged))
        let lifecycle = harness.events.kinds.filter { $0 != .configurationChanged }
        #expect(lifecycle == [.reconciling, .ready, .reconciling, .contextChanged])
        #expect(harness.testClient.contextUpdates.last == ConfigDirectorContext(id: "user-456"))
        #expect(harness.testClient.client.context == ConfigDirectorContext(id: "user-456"))
    }

    @Test("after close nothing more is reported, including by an initialization in flight")
    func nothingAfterClose() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        harness.testClient.holdInitialization()
        let registration = harness.startRegistering()
        #expect(await eventually { harness.testClient.contextUpdates.count == 1 })

        harness.provider.close()
        harness.provider.close()
        harness.testClient.completeInitialization()
        await registration.value
        harness.testClient.setValue(false, for: "new-checkout")
        await harness.setContext(targetingKey: "user-456")

        // Every lifecycle event sets the status at once; none was sent.
        #expect(harness.provider.status == .notReady)
        #expect(harness.events.events.isEmpty)
        // The client was given, so it is still open: it serves the values it received.
        #expect(harness.testClient.client.isReady)
        #expect(harness.testClient.client.value(for: "new-checkout", default: true) == false)
    }
}
#endif
