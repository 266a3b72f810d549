internal import ConfigDirector
internal import Foundation

/// The `config-demo` command: parses the arguments, runs the story (or follows a real environment) and
/// returns the exit status.
public enum DemoRunner {
    /// Runs the command.
    /// - Parameters:
    ///   - arguments: The arguments, without the program's name.
    ///   - untilInterrupted: Returns when the user presses Ctrl-C; `--follow` and `--base-url` wait on it.
    /// - Returns: 0 when everything behaved, 1 when a step failed, 64 for a bad command line.
    public static func run(arguments: [String], untilInterrupted: @escaping @Sendable () async -> Void) async -> Int32 {
        let options: DemoOptions
        do {
            options = try DemoOptions(arguments: arguments)
        } catch {
            FileHandle.standardError.write(Data("config-demo: \(error)\nTry --help.\n".utf8))
            return 64
        }
        if options.showsHelp {
            print(DemoOptions.help)
            return 0
        }
        let console = DemoConsole.standardOutput(plain: options.isPlain)
        do {
            if options.baseURL != nil {
                try await followEnvironment(options: options, console: console, untilInterrupted: untilInterrupted)
            } else {
                let story = DemoStory(options: options, console: console)
                defer { story.finish() }
                try await story.run()
                if options.follows { try await story.follow(untilInterrupted: untilInterrupted) }
            }
            return 0
        } catch {
            console.failed(error.description)
            return 1
        }
    }

    /// `--base-url`: a client of a real environment, no scripted changes; prints the keys received, the
    /// values of the `--key` configs, and every change until Ctrl-C.
    static func followEnvironment(
        options: DemoOptions,
        console: DemoConsole,
        untilInterrupted: @Sendable () async -> Void
    ) async throws(DemoFailure) {
        guard let baseURL = options.baseURL, let sdkKey = options.sdkKey else { return }
        let clientOptions = ConfigDirectorClientOptions(
            metadata: ConfigDirectorMetaContext(appName: "config-demo", appVersion: "1.0"),
            connection: ConnectionOptions(
                mode: options.usesPolling ? .polling : .streaming,
                baseURL: baseURL,
                pausesWhileBackgrounded: false
            ),
            logger: ConsoleLogger(level: options.logLevel),
            // Nothing is written to this machine: no kept values, an instance id in memory.
            caching: CachingOptions(enabled: false, provider: InMemoryCachingProvider())
        )
        let client: ConfigDirectorClient
        do {
            client = try ConfigDirectorClient(clientSDKKey: sdkKey, options: clientOptions)
        } catch {
            throw DemoFailure(step: 0, "the client could not be created: \(error)")
        }
        defer { client.close() }
        let probe = ClientProbe(client)
        let context = ConfigDirectorContext(id: "config-demo-user", name: "config-demo")
        console.line("Connecting to \(baseURL.absoluteString) as user \"config-demo-user\"…")
        await client.initialize(context: context)
        guard client.isReady else {
            throw DemoFailure(
                step: 0,
                "the client was not ready within 3 s; check the base URL and the SDK key (--log-level warn says more)"
            )
        }
        let firstUpdate = await probe.events.first(within: 2) { event in
            if case .configsUpdated = event { return true }
            return false
        }
        var keys = Set<String>()
        if case .configsUpdated(let update)? = firstUpdate?.element { keys = Set(update.keys) }
        console.line("Ready. The environment sent \(keys.count) configs: \(keys.sorted().joined(separator: ", "))")
        var shown: [ReadValue] = []
        for key in options.keys { shown.append(await probe.read(key)) }
        if shown.isEmpty {
            console.note("pass --key KEY:TYPE (bool, int, double, string, json) to print values")
        } else {
            console.table([ReadValue.header] + shown.map(\.row))
        }
        console.line("Following changes until Ctrl-C.")
        // Only the --key configs have a type: the others are named without being read.
        let follower = ChangeFollower.start(probe, watching: options.keys, shown: shown, console: console) { _ in
            nil
        }
        await untilInterrupted()
        follower.cancel()
    }
}
