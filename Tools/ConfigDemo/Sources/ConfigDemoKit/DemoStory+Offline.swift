internal import ConfigDirector
internal import ConfigEmulator
@_spi(Internal) internal import ConfigStore
internal import Foundation

extension DemoStory {
    // MARK: 5

    /// Step 5: the server goes away; the first client keeps its values; a second client sharing the
    /// caching provider serves the values kept on the device until the server is back, then turns ready.
    func serverGoesAway(_ first: ClientProbe) async throws(DemoFailure) {
        let step = 5
        console.step(step, of: Self.stepCount, "The server goes away; values stay; a second client starts")
        let document = try runningEmulator.document
        let stoppedAt = Date()
        stopEmulator()
        let kept = await first.readStoryValues()
        console.note("server: stopped")
        console.table(rows(kept))
        guard first.client.valueSource == .live, kept.allSatisfy({ $0.reason != nil }) else {
            throw DemoFailure(step: step, "the first client stopped serving its values when the server went away")
        }
        console.passed("client 1 keeps serving the values it has (valueSource live)")

        // The SDK writes kept values within its coalescing window of the last change; start the second
        // client once the first one's last change is on disk.
        let settled = (lastLiveChange ?? stoppedAt).addingTimeInterval(KeptValuesStore.defaultCoalescingWindow + 0.3)
        let written = await poll(within: 5) {
            Date() >= settled && (keptValues.lastWriteDate ?? .distantPast) > (lastLiveChange ?? .distantPast)
                ? true : nil
        }
        guard written != nil else {
            throw DemoFailure(step: step, "client 1 did not write the values it keeps on the device")
        }
        console.note(
            "client 1 keeps its values on the device: \(keptValuesFile.lastPathComponent.prefix(14))….json in "
                + keptValuesFile.deletingLastPathComponent().path
        )

        let second = try makeClient(timeout: 1, step: step)
        await second.client.initialize(context: Self.tenantContext)
        guard !second.client.isReady, second.client.valueSource == .keptValues else {
            throw DemoFailure(
                step: step,
                "client 2 should serve kept values and not be ready while the server is away; it was ready: "
                    + "\(second.client.isReady), source: \(second.client.valueSource)"
            )
        }
        let stale = await second.readStoryValues()
        console.note("client 2: initialize timed out after 1 s; isReady false, valueSource keptValues (stale)")
        console.table(rows(stale))
        guard stale.map(\.value) == kept.map(\.value) else {
            throw DemoFailure(step: step, "client 2's kept values differ from client 1's values")
        }
        console.passed("client 2 serves the values kept on the device by client 1 (same caching provider)")

        try await bringServerBack(document: document, second: second, kept: kept, stoppedAt: stoppedAt)
    }

    private func bringServerBack(
        document: ConfigsDocument,
        second: ClientProbe,
        kept: [ReadValue],
        stoppedAt: Date
    ) async throws(DemoFailure) {
        let step = 5
        let readyMark = second.events.count
        let restartedAt = Date()
        _ = try startEmulator(document: document, port: port, step: step)
        console.note("server: back on port \(port), \(seconds(restartedAt.timeIntervalSince(stoppedAt))) after it went")
        if options.usesPolling {
            console.note("polling: the next poll would come within 30 s; resumeNetwork() fetches now")
            await second.client.resumeNetwork()
        }
        let ready = await second.events.first(after: readyMark, within: 12) { event in
            if case .ready = event { return true }
            return false
        }
        guard let ready, second.client.isReady, second.client.valueSource == .live else {
            throw DemoFailure(step: step, "client 2 did not turn ready within 12 s of the server coming back")
        }
        let live = await second.readStoryValues()
        console.table(rows(live))
        guard live.map(\.value) == kept.map(\.value) else {
            throw DemoFailure(step: step, "client 2's live values differ from the values it kept")
        }
        let how = options.usesPolling ? "after resumeNetwork()" : "reconnecting with backoff"
        console.passed(
            "client 2 turned ready \(seconds(ready.receivedAt.timeIntervalSince(restartedAt))) after the server "
                + "came back (\(how)): valueSource live"
        )
    }

    // MARK: 6

    /// Step 6: the clients close, which sends their telemetry, and the counts the emulators received
    /// are printed per key.
    func reportTelemetry() async throws(DemoFailure) {
        let step = 6
        console.step(step, of: Self.stepCount, "Close the clients; the telemetry the server received")
        let emulator = try runningEmulator
        let before = emulator.telemetryBatches().count
        for probe in probes { probe.client.close() }
        let arrived = await poll(within: 5) { emulator.telemetryBatches().count >= before + probes.count ? true : nil }
        guard arrived != nil else {
            throw DemoFailure(
                step: step,
                "the clients' last telemetry did not arrive within 5 s of close() "
                    + "(\(emulator.telemetryBatches().count - before) of \(probes.count) batches)"
            )
        }
        let batches = (stoppedEmulators + [emulator]).flatMap { $0.telemetryBatches() }
        let counts = TelemetryCounts(batches.flatMap(\.evaluatedConfigEvents))
        let published = probes.map(\.evaluations.count).reduce(0, +)
        console.note(
            "\(batches.count) batches counting \(counts.total) evaluations; the clients published \(published)"
        )
        if counts.total < published {
            console.note("the difference was sent while the server was away: such a batch is dropped (PROTOCOL §6)")
        }
        console.table([["config", "evaluations", "by reason"]] + counts.rows)
        let missing = ["dark-mode", "max-items", "discount-rate", "welcome-message", "theme"].filter {
            counts.byKey[$0] == nil
        }
        guard missing.isEmpty else {
            throw DemoFailure(step: step, "no telemetry arrived for \(missing.joined(separator: ", "))")
        }
        console.passed("every config read in the story was counted")
    }
}
