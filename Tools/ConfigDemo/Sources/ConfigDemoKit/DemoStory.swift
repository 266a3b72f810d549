internal import ConfigDirector
internal import ConfigEmulator
internal import Foundation

/// The scripted story: an emulator in this process, two clients, six steps that each check what they
/// show. ``run()`` plays it; ``follow(untilInterrupted:)`` keeps printing changes afterwards;
/// ``finish()`` releases everything (it also runs when the story is released).
public final class DemoStory {
    static let stepCount = 6
    static let sdkKey = "emulator-sdk-key"
    static let userContext = ConfigDirectorContext(
        id: "user-42",
        name: "Ada",
        traits: ["plan": "free", "region": "eu-west"]
    )
    static let tenantContext = ConfigDirectorContext(
        id: "acme",
        kind: "tenant",
        name: "Acme Corp",
        traits: ["plan": "pro", "beta": true, "seats": 250]
    )

    let options: DemoOptions
    let console: DemoConsole
    /// A temporary folder for the values kept on the "device" and, with `--follow`, the configs file.
    let folder: URL
    let keptValues: KeptValuesObserver
    let keptValuesFile: URL
    /// The emulator serving now, and the ones stopped before it (whose telemetry records step 6 reads).
    var emulator: ConfigEmulator?
    var stoppedEmulators: [ConfigEmulator] = []
    var port = 0
    var probes: [ClientProbe] = []
    /// When the first client last received a change, so that step 5 knows when it has been kept.
    var lastLiveChange: Date?
    private var isFinished = false

    /// Creates the story; nothing starts before ``run()``.
    /// - Parameters:
    ///   - options: `--polling` and `--follow` change the story; the others are the runner's.
    ///   - console: Where the story prints.
    public init(options: DemoOptions, console: DemoConsole) {
        self.options = options
        self.console = console
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "config-demo-\(UUID().uuidString.prefix(8))",
            isDirectory: true
        )
        let device = folder.appendingPathComponent("device", isDirectory: true)
        let provider = FileCachingProvider(clientSDKKey: Self.sdkKey, directory: device)
        keptValuesFile = provider.fileURL
        keptValues = KeptValuesObserver(provider)
    }

    deinit {
        finish()
    }

    /// Plays the six steps.
    /// - Throws: ``DemoFailure`` naming the first step that did not behave.
    public func run() async throws(DemoFailure) {
        let started = Date()
        let document: ConfigsDocument
        do {
            document = try DemoConfigs.document()
        } catch {
            throw DemoFailure(step: 0, "the demo's configs do not decode: \(error)")
        }
        let emulator = try startEmulator(document: document, port: 0, step: 0)
        port = emulator.port
        console.line(
            "ConfigDirector Swift SDK demo: an emulator in this process serves the example configs at "
                + "\(emulator.baseURL.absoluteString); the clients \(options.usesPolling ? "poll" : "stream")."
        )
        console.note("dashboard: \(emulator.dashboardURL.absoluteString) (open it in a browser while the demo runs)")
        let client = try await initializeClient()
        try await changeValueOnServer(client)
        try await switchToTenant(client)
        if options.usesPolling {
            try await refuseOneFetch(client)
        } else {
            try await dropEveryStream(client)
        }
        try await serverGoesAway(client)
        try await reportTelemetry()
        console.line()
        console.line(
            "The story passed in \(seconds(Date().timeIntervalSince(started))): "
                + "\(Self.stepCount) steps, \(Self.stepCount) ok."
        )
    }

    /// Stops the emulator, closes the clients and removes the temporary folder; calling it again does nothing.
    public func finish() {
        guard !isFinished else { return }
        isFinished = true
        for probe in probes {
            probe.client.close()
            probe.evaluations.cancel()
            probe.events.cancel()
        }
        emulator?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Shared by the steps

    func startEmulator(document: ConfigsDocument, port: Int, watching file: URL? = nil, step: Int) throws(DemoFailure)
        -> ConfigEmulator
    {
        let emulator = ConfigEmulator(
            configuration: EmulatorConfiguration(port: port, sdkKey: Self.sdkKey, document: document, watchedFile: file)
        )
        do {
            try emulator.start()
        } catch {
            throw DemoFailure(step: step, "the emulator could not start on port \(port): \(error)")
        }
        self.emulator = emulator
        return emulator
    }

    func stopEmulator() {
        guard let emulator else { return }
        emulator.stop()
        stoppedEmulators.append(emulator)
        self.emulator = nil
    }

    var runningEmulator: ConfigEmulator {
        get throws(DemoFailure) {
            guard let emulator else { throw DemoFailure(step: 0, "no emulator is running") }
            return emulator
        }
    }

    /// A client of the emulator with the demo's options, and recorders on its streams.
    func makeClient(timeout: Double, step: Int) throws(DemoFailure) -> ClientProbe {
        let options = ConfigDirectorClientOptions(
            metadata: ConfigDirectorMetaContext(appName: "config-demo", appVersion: "1.0"),
            connection: ConnectionOptions(
                mode: self.options.usesPolling ? .polling : .streaming,
                timeout: timeout,
                baseURL: URL(string: "http://127.0.0.1:\(port)"),
                pausesWhileBackgrounded: false
            ),
            logger: ConsoleLogger(level: self.options.logLevel),
            caching: CachingOptions(provider: keptValues)
        )
        do {
            let probe = ClientProbe(try ConfigDirectorClient(clientSDKKey: Self.sdkKey, options: options))
            probes.append(probe)
            return probe
        } catch {
            throw DemoFailure(step: step, "the client could not be created: \(error)")
        }
    }

    /// Fails `step` unless every value named in `expected` has the value text and reason given.
    func check(_ values: [ReadValue], _ expected: [String: (String, EvaluationReason)], step: Int)
        throws(DemoFailure)
    {
        for value in values {
            guard let (text, reason) = expected[value.key] else { continue }
            guard value.value == text, value.reason == reason else {
                throw DemoFailure(
                    step: step,
                    "\(value.key) read \(value.value) (\(value.reason?.rawValue ?? "no evaluation")), "
                        + "expected \(text) (\(reason.rawValue))"
                )
            }
        }
    }

    /// A values table: the header, then one row per value.
    func rows(_ values: [ReadValue]) -> [[String]] {
        [ReadValue.header] + values.map(\.row)
    }

    /// The keys whose value text differs between two reads.
    func changedKeys(from old: [ReadValue], to new: [ReadValue]) -> Set<String> {
        let before = Dictionary(old.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        return Set(new.filter { before[$0.key] != $0.value }.map(\.key))
    }
}

/// A duration for people: milliseconds below a second, else seconds with one decimal.
func seconds(_ interval: TimeInterval) -> String {
    interval < 1 ? String(format: "%.1f ms", interval * 1000) : String(format: "%.1f s", interval)
}
