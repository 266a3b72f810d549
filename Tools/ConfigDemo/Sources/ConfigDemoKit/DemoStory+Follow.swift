internal import ConfigDirector
internal import ConfigEmulator
internal import Foundation

extension DemoStory {
    /// After the story: serves the configs from a file the user can edit, and prints every change a new
    /// client receives until `untilInterrupted` returns.
    /// - Parameter untilInterrupted: Returns when the user presses Ctrl-C.
    /// - Throws: ``DemoFailure`` when the emulator or the client cannot start.
    public func follow(untilInterrupted: @Sendable () async -> Void) async throws(DemoFailure) {
        let document = try runningEmulator.document
        let file = folder.appendingPathComponent("configs.json")
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try encoder.encode(document).write(to: file)
        } catch {
            throw DemoFailure(step: 0, "could not write the configs file \(file.path): \(error)")
        }
        stopEmulator()
        let emulator = try startEmulator(document: document, port: port, watching: file, step: 0)
        let probe = try makeClient(timeout: 2, step: 0)
        await probe.client.initialize(context: Self.tenantContext)
        console.line()
        console.line("Following changes for tenant \"acme\" until Ctrl-C. To change a config,")
        console.note("open the dashboard at \(emulator.dashboardURL.absoluteString),")
        console.note("edit \(file.path) (reloaded within a second), or call the admin API:")
        console.note(
            "curl -X PUT -H 'X-Emulator-Admin: 1' \(emulator.baseURL.absoluteString)/admin/configs/welcome-message/value"
                + " -d '\"Hi there\"'"
        )
        if options.usesPolling {
            console.note("(polling: changes arrive with the next poll, every 30 s)")
        }
        let keys = document.configs.map { FollowedKey(key: $0.key, type: FollowedKey.ValueType($0.type)) }
        var values: [ReadValue] = []
        for key in keys { values.append(await probe.read(key)) }
        console.table(rows(values))
        let follower = ChangeFollower.start(probe, watching: keys, shown: values, console: console) { key in
            emulator.document.configs.last { $0.key == key }.map { FollowedKey.ValueType($0.type) }
        }
        await untilInterrupted()
        follower.cancel()
    }
}
