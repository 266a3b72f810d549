import ConfigDirector
import ConfigDirectorTesting
import Foundation
import Testing

// README "Beyond the reference API" and the ConfigClient DocC page, as written there; what the
// page leaves to the reader (`Theme`'s fallback, `apply`) is given here; the examples of the traits Tracing and
// Logging are TracingExamples and SwiftLogExamples.

private struct BeyondTheme: Decodable, Equatable, Sendable {
    let primary: String
    static let fallback = BeyondTheme(primary: "#000000")
}

private func apply(_ theme: BeyondTheme) {}

// "Typed keys", verbatim but for the theme's type name.
extension ConfigKeys {
    static let darkMode = ConfigKey("dark-mode", default: false)
    static let maxItems = ConfigKey("max-items", default: 20)
    fileprivate static let theme = JSONConfigKey("theme", as: BeyondTheme.self, default: .fallback)
}

private func readTypedKeys(_ client: ConfigDirectorClient) async {
    let darkMode = client.value(for: .darkMode)  // Bool
    let maxItems = client[.maxItems]  // Int
    for await theme in client.values(for: .theme) { apply(theme) }
    _ = (darkMode, maxItems)
}

// "Detail reads", verbatim.
private func explainDarkMode(_ client: ConfigDirectorClient) {
    let detail = client.evaluation(for: .darkMode)
    if detail.evaluation.isDefaultValue {
        print("dark-mode is \(detail.value): \(detail.evaluation.reason.rawValue), from \(detail.evaluation.source)")
    }
}

// "Bundled values", verbatim.
private func makeBundledClient() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(bundledValues: .resource(named: "configdirector-defaults"))
    )
    return client
}

// "Crash-loop safe mode" (and the ConfigClient DocC page), verbatim.
private func makeSafeModeClient() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(safeMode: SafeModeOptions(stablePeriod: 20))
    )
    // Once the first screen is up, rather than after 20 s:
    client.markLaunchHealthy()
    return client
}

// "Local overrides" (and the ConfigClient DocC page), verbatim.
private func makeOverridingClient() throws -> ConfigDirectorClient {
    var options = ConfigDirectorClientOptions()
    #if DEBUG
    options.overrides = .enabled
    #endif
    let client = try ConfigDirectorClient(clientSDKKey: "YOUR-CLIENT-SDK-KEY", options: options)
    client.setOverride(true, for: "new-checkout")
    client.setOverride(["theme": "dark", "radius": 8], for: "layout")
    print(client.overrides.map(\.key))  // ["layout", "new-checkout"]
    client.removeOverride(for: "layout")
    client.removeAllOverrides()
    return client
}

// "A snapshot of every value" (and the ConfigClient DocC page), verbatim.
private func printSnapshot(of client: ConfigDirectorClient) {
    let snapshot = client.snapshot()
    for config in snapshot.configs {
        print(config.key, config.type, config.value ?? "no value", config.source, config.reason)
    }
}

// "Values that change only when the app says so" (and `UpdatePolicy`'s docs), verbatim; never run: it connects to
// the service.
private func activateOnDemand() async throws {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(updatePolicy: .onActivate)
    )
    await client.initialize(context: ConfigDirectorContext(id: "user-123"))
    // Later, at a moment the app chooses (a new screen, the next session):
    if client.activate() { print("new values from now on") }
}

// "The connection's health" (and the ConfigClient DocC page), verbatim.
private func reportConnectionHealth(_ client: ConfigDirectorClient) async {
    let health = client.connectionHealth
    print("\(health.mode), \(health.state), values received \(health.lastValuesReceived?.description ?? "never")")
    if let failure = health.lastFailure {
        print("last failure at \(failure.date): \(failure.description)")
    }

    for await health in client.connectionHealthUpdates {
        if case .waitingToRetry(let until) = health.state { print("offline; next attempt at \(until)") }
    }
}

// "Testing hooks and bundled values" (and the ConfigTesting DocC page), verbatim.
struct ReadRecorder: ConfigDirectorHook {
    let reads: AsyncStream<ConfigEvaluation>.Continuation

    func afterEvaluation(
        _ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData
    ) throws {
        reads.yield(result)
    }
}

@Suite("Examples beyond the reference API", .timeLimit(.minutes(1)))
struct BeyondTheReferenceExamples {
    @Test("typed keys read what the test client serves")
    func typedKeys() async {
        let testClient = makeTestClient(values: ["dark-mode": true, "max-items": 5, "theme": ["primary": "#fff"]])
        defer { testClient.client.close() }
        await testClient.client.initialize()
        #expect(testClient.client.value(for: .darkMode))
        #expect(testClient.client[.maxItems] == 5)
        var themes = testClient.client.values(for: .theme).makeAsyncIterator()
        #expect(await themes.next() == BeyondTheme(primary: "#fff"))
    }

    @Test("a detail read tells the value, why, and where it came from")
    func detailRead() async {
        let testClient = makeTestClient(values: ["max-items": 5])
        defer { testClient.client.close() }
        await testClient.client.initialize()
        explainDarkMode(testClient.client)
        let maxItems = testClient.client.evaluation(for: .maxItems)
        #expect(maxItems.value == 5)
        #expect(!maxItems.evaluation.isDefaultValue)
        #expect(maxItems.evaluation.source == .live)
        let darkMode = testClient.client.evaluation(for: .darkMode)
        #expect(darkMode.evaluation.reason == .configStateMissing)
        #expect(darkMode.evaluation.source == .codeDefault)
    }

    @Test("the bundled values example names a resource the test bundle lacks: the initializer says so")
    func bundledValues() {
        let error = #expect(throws: ConfigDirectorError.self) { try makeBundledClient() }
        #expect(error?.localizedDescription.contains("configdirector-defaults.json") == true)
    }

    @Test("the safe mode example makes a client with its stable period, not in safe mode before its first launch")
    func safeMode() throws {
        let client = try makeSafeModeClient()
        defer { client.close() }
        #expect(!client.isInSafeMode)
        #expect(ConfigDirectorClientOptions(safeMode: SafeModeOptions(stablePeriod: 20)).safeMode.stablePeriod == 20)
        #expect(ConfigDirectorClientOptions().safeMode.isEnabled)
        #expect(!SafeModeOptions.disabled.isEnabled)
    }

    @Test("the overrides example leaves none set, on a client that takes them in a debug build")
    func overrides() throws {
        let client = try makeOverridingClient()
        defer { client.close() }
        #expect(client.overrides.isEmpty)
        #expect(client.areOverridesEnabled)
        client.setOverride(3, for: "max-items")
        #expect(client.value(for: .maxItems) == 3)
        #expect(client.evaluation(for: .maxItems).evaluation.source == .override)
    }

    @Test("the snapshot example lists what the client holds, without an evaluation")
    func snapshot() async {
        let testClient = makeTestClient(values: ["dark-mode": true, "max-items": 5])
        defer { testClient.client.close() }
        await testClient.client.initialize()
        testClient.client.setOverride(false, for: "dark-mode")
        let evaluations = testClient.client.evaluations
        printSnapshot(of: testClient.client)
        let snapshot = testClient.client.snapshot()
        #expect(snapshot.configs.map(\.key) == ["dark-mode", "max-items"])
        #expect(snapshot["dark-mode"]?.source == .override)
        #expect(snapshot["max-items"]?.value == "5")
        // The first evaluation published is the read below: the snapshots published none.
        _ = testClient.client.value(for: .maxItems)
        var published = evaluations.makeAsyncIterator()
        #expect(await published.next()?.key == "max-items")
    }

    @Test("the update policy example's options wait for activate()")
    func updatePolicy() throws {
        _ = activateOnDemand  // compiled, never run: it connects to the service
        let client = try ConfigDirectorClient(
            clientSDKKey: "YOUR-CLIENT-SDK-KEY", options: ConfigDirectorClientOptions(updatePolicy: .onActivate))
        defer { client.close() }
        #expect(!client.hasPendingValues)
        #expect(!client.activate())
        #expect(ConfigDirectorClientOptions().updatePolicy == .live)
    }

    @Test("the health example reads a test client's connection, and its loop ends when the client closes")
    func connectionHealth() async {
        let testClient = makeTestClient(values: ["dark-mode": true])
        await testClient.client.initialize()
        let health = testClient.client.connectionHealth
        #expect(health.state == .connected)
        #expect(health.lastValuesReceived != nil)
        #expect(health.lastFailure == nil)
        #expect(health.nextAttempt == nil)
        testClient.client.close()
        await reportConnectionHealth(testClient.client)
        #expect(testClient.client.connectionHealth.state == .closed)
    }

    @Test("the test client runs the app's hook and serves its bundled values until initialize")
    func testedHookAndBundledValues() async throws {
        let (reads, recorder) = AsyncStream.makeStream(of: ConfigEvaluation.self)
        let testClient = try makeTestClient(
            values: ["dark-mode": false],
            hooks: [ReadRecorder(reads: recorder)],
            bundledValues: ["dark-mode": true]
        )
        defer { testClient.client.close() }
        var recorded = reads.makeAsyncIterator()

        #expect(testClient.client.value(for: .darkMode))  // the bundled value, before initialize
        #expect(await recorded.next()?.source == .bundledValues)

        await testClient.client.initialize()
        #expect(testClient.client.value(for: .darkMode) == false)  // the test's value replaces it
        #expect(await recorded.next()?.source == .live)
    }
}
