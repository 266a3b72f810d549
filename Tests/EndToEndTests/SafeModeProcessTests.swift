@_spi(Internal) @_spi(Testing) import ConfigClient
import ConfigEmulator
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
import EmulatorTestSupport
import Foundation
import ModelTestSupport
import TestSupport
import Testing

/// Crash-loop safe mode through real processes (issue 44): each launch is this test binary started again, as an
/// app that reads `layout` through the SDK against the emulator, and aborts when it reads `poison`.
@Suite("Crash-loop safe mode, launch after launch", .timeLimit(.minutes(3)))
struct SafeModeProcessTests {
    private static let sdkKey = "safe-mode-sdk-key"
    private static let stablePeriod = 0.5

    /// What one launch reported before it ended.
    struct Report: Codable {
        var layout: String
        var isInSafeMode: Bool
        var logs: [String]
        /// The process's exit status: 0 for a launch that exited, not 0 for one that aborted or was killed.
        var status: Int32 = 0

        func mentions(_ text: String) -> Bool { logs.contains { $0.contains(text) } }
    }

    /// The launches of one app: its folder (the values kept, safe mode's files) and the emulator it asks.
    struct App {
        let folder: TemporaryFolder
        let emulator: ConfigEmulator

        /// Launches the app and waits for it to end.
        /// - Parameters:
        ///   - ending: `exit` to exit normally once the launch is healthy (or in safe mode), `kill` to be killed
        ///     by `SIGKILL` once it is healthy.
        ///   - tracer: A command the launch runs under (a debugger), if any.
        func launch(ending: String = "exit", under tracer: [String] = []) async throws -> Report {
            let report = folder.url.appendingPathComponent("report-\(UUID().uuidString).json")
            let status = try await relaunchThisTestBinary(
                filter: "SafeModeProcessTests/launchedApp",
                environment: [
                    "SAFE_MODE_APP": ending,
                    "SAFE_MODE_BASE_URL": emulator.baseURL.absoluteString,
                    "SAFE_MODE_FOLDER": folder.url.path,
                    "SAFE_MODE_REPORT": report.path,
                    // An abort is this app's crash: no backtrace to print first.
                    "SWIFT_BACKTRACE": "enable=no",
                ],
                under: tracer
            )
            var read = try JSONDecoder().decode(Report.self, from: Data(contentsOf: report))
            read.status = status
            return read
        }
    }

    private static func withApp(layout: String, _ body: (App) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withEmulator(
            configs: [EmulatedConfig(key: "layout", type: .string, value: .string(layout))], sdkKey: sdkKey
        ) { emulator in
            try await body(App(folder: folder, emulator: emulator))
        }
    }

    // MARK: The app

    /// One launch of the app, run only in a process that ``App/launch(ending:under:)`` started.
    @Test("a launch of the app (does nothing unless started as one)")
    func launchedApp() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let ending = environment["SAFE_MODE_APP"], let baseURL = environment["SAFE_MODE_BASE_URL"],
            let folder = environment["SAFE_MODE_FOLDER"], let reportPath = environment["SAFE_MODE_REPORT"]
        else { return }
        let directory = URL(fileURLWithPath: folder)
        let logger = RecordingLogger(level: .debug)
        let client = try ConfigDirectorClient(
            clientSDKKey: Self.sdkKey,
            options: ConfigDirectorClientOptions(
                connection: ConnectionOptions(mode: .streaming, timeout: 2, baseURL: URL(string: baseURL)),
                logger: logger,
                caching: CachingOptions(provider: FileCachingProvider(clientSDKKey: Self.sdkKey, directory: directory)),
                safeMode: SafeModeOptions(stablePeriod: Self.stablePeriod, directory: directory)
            )
        )
        await client.initialize(context: ConfigDirectorContext(id: "user-1"))
        let layout = client.value(for: "layout", default: "default")
        func report() throws {
            let report = Report(layout: layout, isInSafeMode: client.isInSafeMode, logs: logger.entries.map(\.line))
            try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: reportPath))
        }
        try report()
        // The crash that the config causes.
        if layout == "poison" { abort() }
        if !client.isInSafeMode, logger.mentions("is on trial") {
            #expect(await eventually(timeout: 20) { logger.mentions("the launch is healthy") })
        }
        try report()
        if ending == "kill" { kill(getpid(), SIGKILL) }
        await client.closeAndWait()
    }

    // MARK: Launches

    @Test(
        """
        a set after which launches crash is set aside: the next launch serves the last set that ran well, then the \
        fix is applied, and the same crashing set sent again is refused
        """
    )
    func crashLoop() async throws {
        try await Self.withApp(layout: "fine") { app in
            let first = try await app.launch()
            #expect(first.status == 0 && first.layout == "fine" && !first.isInSafeMode)

            _ = app.emulator.setValue(.string("poison"), forKey: "layout")
            let crashed = try await app.launch()
            #expect(crashed.status != 0 && crashed.layout == "poison")
            let crashedAgain = try await app.launch()
            #expect(crashedAgain.status != 0 && crashedAgain.layout == "poison")
            #expect(crashedAgain.mentions("1 of 2 unhealthy launches in a row"))

            let safe = try await app.launch()
            #expect(safe.status == 0)
            #expect(safe.layout == "fine")
            #expect(safe.isInSafeMode)
            #expect(safe.mentions("Safe mode is on: the last 2 launches ended"))
            #expect(safe.mentions("keys changed: 'layout'"))
            #expect(safe.mentions("was refused"))

            _ = app.emulator.setValue(.string("fixed"), forKey: "layout")
            let fixed = try await app.launch()
            #expect(fixed.status == 0 && fixed.layout == "fixed" && !fixed.isInSafeMode)

            _ = app.emulator.setValue(.string("poison"), forKey: "layout")
            let refused = try await app.launch()
            #expect(refused.status == 0)
            #expect(refused.layout == "fixed")
            #expect(refused.isInSafeMode)
            #expect(refused.mentions("identical to one set aside"))
        }
    }

    @Test("a launch killed after its stable period ran well: it is not counted")
    func killedAfterTheStablePeriod() async throws {
        try await Self.withApp(layout: "fine") { app in
            let killed = try await app.launch(ending: "kill")
            #expect(killed.status != 0 && killed.mentions("the launch is healthy"))
            let next = try await app.launch()
            #expect(next.mentions("the last launch ended healthy"))
            #expect(!next.mentions("unhealthy launches in a row"))
        }
    }

    @Test("a launch under a debugger (a tracer: strace here) that crashes is not counted")
    func tracedLaunch() async throws {
        // gdb would do as well, but waits for ever for a SIGCHLD that a child of Foundation's Process never gets.
        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else {
            Issue.record("strace is needed at \(strace) to run a launch under a tracer")
            return
        }
        try await Self.withApp(layout: "poison") { app in
            let traced = try await app.launch(under: [strace, "-f", "-o", "/dev/null"])
            #expect(traced.status != 0 && traced.layout == "poison")
            let first = try await app.launch()
            #expect(first.status != 0 && first.mentions("ran under a debugger"))
            let second = try await app.launch()
            #expect(second.status != 0 && second.mentions("1 of 2 unhealthy launches in a row"))
            let safe = try await app.launch()
            #expect(safe.isInSafeMode && safe.layout == "default")
        }
    }
}
