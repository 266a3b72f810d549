import ConfigDirector
import ConfigEmulator
import TestSupport
import Testing

@Suite("Documented examples: other client features", .timeLimit(.minutes(1)))
struct OtherFeaturesExamples {
    @Test("context changes only once the new connection succeeds, and isReady is false meanwhile")
    func contextAndReadiness() async throws {
        try await withDocumentedClient(timeout: 5) { client, emulator in
            #expect(client.context == nil)
            #expect(!client.isReady)
            await client.initialize(context: ConfigDirectorContext(id: "a"))
            #expect(client.isReady)

            emulator.inject(.stall(seconds: 2, path: "/client/sse/v1"))
            let update = Task { await client.updateContext(ConfigDirectorContext(id: "b")) }
            #expect(await eventually(timeout: 2) { !client.isReady })
            #expect(client.context?.id == "a")
            #expect(client.value(for: "my-config-key", default: false))
            await update.value
            #expect(client.isReady)
            #expect(client.context?.id == "b")
        }
    }

    @Test("pauseNetwork keeps state; resumeNetwork reconnects with the last context")
    func pauseAndResume() async throws {
        try await withDocumentedClient { client, emulator in
            await client.initialize(context: ConfigDirectorContext(id: "a"))
            client.pauseNetwork()
            #expect(client.value(for: "my-string-config-key", default: "") == "Served")
            emulator.setValue("While paused", forKey: "my-string-config-key")
            await client.resumeNetwork()
            #expect(client.value(for: "my-string-config-key", default: "") == "While paused")
            #expect(emulator.openStreams().last?.context.id == "a")
        }
    }

    @Test("close ends the connection and every stream; the client cannot be used afterwards")
    func close() async throws {
        try await withDocumentedClient { client, emulator in
            await client.initialize()
            var values = client.values(for: "my-config-key", default: false).makeAsyncIterator()
            #expect(await values.next() == true)
            client.close()
            #expect(await values.next() == nil)
            #expect(client.value(for: "my-config-key", default: false) == false)
            #expect(await eventually(timeout: 2) { emulator.openStreams().isEmpty })
        }
    }
}
