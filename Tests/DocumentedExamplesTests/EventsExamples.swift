import ConfigDirector
import ConfigEmulator
import Testing

// "Events", verbatim, each loop in a function of the client it reads.
private func printEvents(_ client: ConfigDirectorClient) async {
    for await event in client.events {
        switch event {
        case let .ready(reason):
            print("Client is ready after \(reason)")
        case let .configsUpdated(update):
            print("Configs updated: \(update.keys), removed: \(update.removedKeys)")
        case let .contextUpdated(context):
            print("Context updated: \(context?.id ?? "none")")
        }
    }
}

private func printDefaultEvaluations(_ client: ConfigDirectorClient) async {
    for await evaluation in client.evaluations where evaluation.isDefaultValue {
        print("'\(evaluation.key)' fell back to its default: \(evaluation.reason.rawValue)")
    }
}

private func printBooleanEvaluations(_ client: ConfigDirectorClient) async {
    for await evaluation in client.evaluations {
        guard let isOn = evaluation.value.as(Bool.self) else { continue }

        print("'\(evaluation.key)' evaluated to \(isOn), value ID \(evaluation.valueID ?? "none")")
    }
}

/// Whether every loop ended within `seconds`; the loops still running then are cancelled, which ends
/// their `for await`, so that the wait is bounded either way.
private func ended(_ loops: [Task<Void, Never>], within seconds: Double) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            for loop in loops { await loop.value }
            return true
        }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        for loop in loops { loop.cancel() }
        return first
    }
}

@Suite("Documented examples: events", .timeLimit(.minutes(1)))
struct EventsExamples {
    @Test("the documented loops run until the client is closed, which finishes every stream")
    func loopsEndOnClose() async throws {
        try await withDocumentedClient { client, _ in
            let loops = [
                Task { await printEvents(client) },
                Task { await printDefaultEvaluations(client) },
                Task { await printBooleanEvaluations(client) },
            ]
            await client.initialize()
            client.value(for: "missing", default: false)
            client.close()
            #expect(await ended(loops, within: 10), "a documented loop did not end when the client closed")
        }
    }

    @Test("contextUpdated comes before ready, and configsUpdated lists the keys of the payload")
    func initializationEvents() async throws {
        try await withDocumentedClient { client, emulator in
            var events = client.events.makeAsyncIterator()
            await client.initialize(context: ConfigDirectorContext(id: "user-123"))
            #expect(await events.next() == .contextUpdated(ConfigDirectorContext(id: "user-123")))
            #expect(await events.next() == .ready(.initialization))
            guard case let .configsUpdated(update) = await events.next() else {
                Issue.record("expected configsUpdated")
                return
            }
            #expect(Set(update.keys) == Set(documentedConfigs.map(\.key)))
            #expect(update.removedKeys.isEmpty)

            emulator.removeConfig(forKey: "dark-mode")
            guard case let .configsUpdated(removal) = await events.next() else {
                Issue.record("expected configsUpdated")
                return
            }
            #expect(removal.removedKeys == ["dark-mode"])
        }
    }

    @Test("an evaluation that fell back says why, and reads back as the type evaluated")
    func evaluations() async throws {
        try await withDocumentedClient { client, _ in
            var evaluations = client.evaluations.makeAsyncIterator()
            client.value(for: "my-config-key", default: false)
            let early = try #require(await evaluations.next())
            #expect(early.isDefaultValue)
            #expect(early.reason == .clientNotReady)
            #expect(early.reason.rawValue == "client-not-ready")
            #expect(early.valueID == nil)

            await client.initialize()
            client.value(for: "my-config-key", default: false)
            let served = try #require(await evaluations.next())
            #expect(served.value.as(Bool.self) == true)
            #expect(served.value.as(String.self) == nil)
            #expect(served.valueID != nil)
            #expect(served == served)
        }
    }
}
