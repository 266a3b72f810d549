internal import ConfigDirector
internal import ConfigEmulator
internal import Foundation

extension DemoStory {
    static let changedWelcome = "Hello again, changed on the server"

    // MARK: 1

    /// Step 1: a client initializes for a user and reads five types of config, each with its reason.
    func initializeClient() async throws(DemoFailure) -> ClientProbe {
        let step = 1
        console.step(step, of: Self.stepCount, "Create a \(modeName) client and initialize it for a user")
        let probe = try makeClient(timeout: 2, step: step)
        let started = Date()
        await probe.client.initialize(context: Self.userContext)
        let elapsed = Date().timeIntervalSince(started)
        guard probe.client.isReady, probe.client.valueSource == .live else {
            throw DemoFailure(step: step, "the client was not ready with live values after initialize (2 s timeout)")
        }
        console.note(
            "initialize(context: user \"user-42\", plan \"free\") returned in \(seconds(elapsed)): "
                + "isReady true, valueSource live"
        )
        let values = await probe.readStoryValues()
        console.table(rows(values))
        try check(
            values,
            [
                "dark-mode": ("false", .foundMatch), "max-items": ("20", .foundMatch),
                "discount-rate": ("0.15", .foundMatch),
                "welcome-message": (quoted("Hello from the emulator"), .foundMatch),
                "theme": (DemoTheme(primaryColor: "blue", cornerRadius: 8).description, .foundMatch),
                "sunset-date": (quoted("never"), .valueMissing),
            ],
            step: step
        )
        console.passed("five types read, reasons from the evaluations stream (sunset-date has no value: default)")
        return probe
    }

    // MARK: 2

    /// Step 2: a value changes on the server and `values(for:default:)` yields it; the delay is printed.
    func changeValueOnServer(_ probe: ClientProbe) async throws(DemoFailure) {
        let step = 2
        console.step(step, of: Self.stepCount, "Change a value on the server; values(for:default:) yields it")
        let watch = StreamRecorder(probe.client.values(for: "welcome-message", default: "Welcome"))
        defer { watch.cancel() }
        guard await watch.first(within: 2) != nil else {
            throw DemoFailure(step: step, "values(for: \"welcome-message\") did not yield its current value")
        }
        let before = await probe.readStoryValues()
        let mark = watch.count
        console.note("server: welcome-message = \(quoted(Self.changedWelcome))")
        if console.style == .live { console.table(rows(before)) }
        let changedAt = Date()
        try runningEmulator.setValue(.string(Self.changedWelcome), forKey: "welcome-message")
        if options.usesPolling {
            probe.client.pauseNetwork()
            await probe.client.resumeNetwork()
        }
        guard let yielded = await watch.first(after: mark, within: 5, where: { $0 == Self.changedWelcome }) else {
            throw DemoFailure(step: step, "values(for: \"welcome-message\") did not yield the new value within 5 s")
        }
        let after = await probe.readStoryValues()
        console.table(rows(after), changed: changedKeys(from: before, to: after))
        let delay = seconds(yielded.receivedAt.timeIntervalSince(changedAt))
        if options.usesPolling {
            console.note(
                "polling: the next poll would bring it within 30 s; pauseNetwork() + resumeNetwork() fetched it now"
            )
        }
        console.passed("values(for: \"welcome-message\") yielded the new value \(delay) after the server change")
    }

    // MARK: 3

    /// Step 3: the context becomes a tenant with other traits, and the values follow the server's rules.
    func switchToTenant(_ probe: ClientProbe) async throws(DemoFailure) {
        let step = 3
        console.step(step, of: Self.stepCount, "Update the context to a tenant with other traits")
        let before = await probe.readStoryValues()
        if console.style == .live { console.table(rows(before)) }
        let started = Date()
        await probe.client.updateContext(Self.tenantContext)
        let elapsed = Date().timeIntervalSince(started)
        guard probe.client.isReady, probe.client.context == Self.tenantContext else {
            throw DemoFailure(step: step, "the client was not ready for the tenant context after updateContext")
        }
        let after = await probe.readStoryValues()
        console.table(rows(after), changed: changedKeys(from: before, to: after))
        try check(
            after,
            [
                "dark-mode": ("true", .foundMatch), "max-items": ("100", .foundMatch),
                "discount-rate": ("0.15", .foundMatch),
                "welcome-message": (quoted(Self.changedWelcome), .foundMatch),
                "theme": (DemoTheme(primaryColor: "green", cornerRadius: 4).description, .foundMatch),
            ],
            step: step
        )
        console.note(
            "updateContext(kind \"tenant\", id \"acme\", plan \"pro\", beta true) returned in \(seconds(elapsed))"
        )
        console.passed(
            "dark-mode (rule: plan = pro), max-items (rule: tenant acme) and theme (rule: kind tenant) changed"
        )
    }

    // MARK: 4

    /// Step 4, streaming: the server drops every stream, a value changes meanwhile, and the client
    /// reconnects with the id of the last event it had and catches up.
    func dropEveryStream(_ probe: ClientProbe) async throws(DemoFailure) {
        let step = 4
        console.step(step, of: Self.stepCount, "The server drops every stream; the client reconnects and catches up")
        let emulator = try runningEmulator
        let (watch, before) = try await watchDiscount(probe, step: step)
        defer { watch.cancel() }
        let mark = watch.count
        guard
            (try? await emulator.waitForStream(timeout: 3, where: { $0.context.id == Self.tenantContext.id })) != nil
        else {
            throw DemoFailure(step: step, "no stream was open for the tenant before the drop")
        }
        let droppedAt = Date()
        emulator.inject(.dropStreams)
        let closed = await poll(within: 1) { emulator.openStreams().isEmpty ? true : nil }
        guard closed != nil else { throw DemoFailure(step: step, "the emulator's streams did not close") }
        emulator.setValue(0.2, forKey: "discount-rate")
        let changedWhileDisconnected = emulator.openStreams().isEmpty
        console.note("server: dropped every stream, then discount-rate = 0.2 while the client was disconnected")
        if console.style == .live { console.table(rows(before)) }
        let reconnected = try? await emulator.waitForStream(timeout: 8) { stream in
            stream.context.id == Self.tenantContext.id && stream.openedAt > droppedAt
        }
        guard let reconnected else {
            throw DemoFailure(step: step, "the client did not reconnect within 8 s of the drop")
        }
        guard let caughtUp = await watch.first(after: mark, within: 3, where: { $0 == 0.2 }) else {
            throw DemoFailure(step: step, "the client reconnected but discount-rate did not become 0.2")
        }
        lastLiveChange = caughtUp.receivedAt
        let after = await probe.readStoryValues()
        console.table(rows(after), changed: changedKeys(from: before, to: after))
        guard changedWhileDisconnected else {
            throw DemoFailure(step: step, "the client reconnected before the change could be made while it was away")
        }
        let lastEvent = reconnected.lastEventID.map { "Last-Event-ID \($0)" } ?? "no Last-Event-ID (full set)"
        console.note(
            "the client reconnected \(seconds(reconnected.openedAt.timeIntervalSince(droppedAt))) after the drop "
                + "(backoff), with \(lastEvent)"
        )
        console.passed(
            "caught up: discount-rate = 0.2, \(seconds(caughtUp.receivedAt.timeIntervalSince(droppedAt))) after the drop"
        )
    }

    /// Step 4, polling: there is no stream to drop, so the server refuses one fetch; the client keeps its
    /// values, and the next fetch brings the change made meanwhile.
    func refuseOneFetch(_ probe: ClientProbe) async throws(DemoFailure) {
        let step = 4
        console.step(step, of: Self.stepCount, "Polling: the server refuses a fetch; the next fetch catches up")
        let emulator = try runningEmulator
        let (watch, before) = try await watchDiscount(probe, step: step)
        defer { watch.cancel() }
        let mark = watch.count
        emulator.inject(.status(503, path: "/client/polling/v1", count: 1))
        emulator.setValue(0.2, forKey: "discount-rate")
        console.note("server: the next fetch gets 503, and discount-rate = 0.2")
        probe.client.pauseNetwork()
        await probe.client.resumeNetwork()
        let kept = await probe.readStoryValues()
        console.table(rows(kept))
        guard watch.count == mark, kept.first(where: { $0.key == "discount-rate" })?.value == "0.15" else {
            throw DemoFailure(step: step, "the refused fetch changed the values served")
        }
        console.note("the refused fetch left the values as they were; fetching again (pauseNetwork + resumeNetwork)")
        probe.client.pauseNetwork()
        await probe.client.resumeNetwork()
        guard let caughtUp = await watch.first(after: mark, within: 3, where: { $0 == 0.2 }) else {
            throw DemoFailure(step: step, "the fetch after the refused one did not bring discount-rate = 0.2")
        }
        lastLiveChange = caughtUp.receivedAt
        let after = await probe.readStoryValues()
        console.table(rows(after), changed: changedKeys(from: before, to: after))
        console.passed("caught up: discount-rate = 0.2")
    }

    private func watchDiscount(_ probe: ClientProbe, step: Int) async throws(DemoFailure) -> (
        StreamRecorder<Double>, [ReadValue]
    ) {
        let watch = StreamRecorder(probe.client.values(for: "discount-rate", default: 0.0))
        guard await watch.first(within: 2, where: { $0 == 0.15 }) != nil else {
            watch.cancel()
            throw DemoFailure(step: step, "values(for: \"discount-rate\") did not yield 0.15")
        }
        return (watch, await probe.readStoryValues())
    }

    var modeName: String { options.usesPolling ? "polling" : "streaming" }
}
