import ConfigDirector
import ConfigEmulator
import Testing

// "Update the user context", verbatim: the first creates its own client, so it is compiled only.
// Kept exactly as the reference page prints it, trailing comma included, so the formatter skips it.
// swift-format-ignore
private func initializeWithContext() async throws {
    let client = try ConfigDirectorClient(clientSDKKey: "YOUR-CLIENT-SDK-KEY")

    await client.initialize(
        context: ConfigDirectorContext(
            id: "12345",
            name: "Example User",
            traits: [
                // Any arbitrary traits which can be referenced in targeting rules
                "region": "North America",
            ]
        )
    )
}

private func updateAndSignOut(_ client: ConfigDirectorClient) async {
    await client.updateContext(
        ConfigDirectorContext(
            id: "654321",
            name: "Another User",
            traits: ["region": "Australia"]
        )
    )

    // Update it to an anonymous context when a user signs out. Leaving `id` unset
    // makes the server derive a stable identifier from this SDK instance.
    await client.updateContext(ConfigDirectorContext(isAnonymous: true))
}

private func updateWithLiteralTraits(_ client: ConfigDirectorClient) async {
    await client.updateContext(
        ConfigDirectorContext(
            id: "user-123",
            name: "Ada Lovelace",
            traits: [
                "plan": "pro",
                "seats": 12,
                "beta": true,
                "regions": ["us-east", "eu-west"],
            ]
        )
    )
}

@Suite("Documented examples: update the user context", .timeLimit(.minutes(1)))
struct UpdateContextExamples {
    @Test("initialize sends the context and its traits select the values")
    func initializeWithTraits() async throws {
        try await withDocumentedClient { client, emulator in
            await client.initialize(
                context: ConfigDirectorContext(id: "12345", name: "Example User", traits: ["region": "North America"])
            )
            #expect(client.context?.id == "12345")
            #expect(client.value(for: "region-greeting", default: "") == "hello")
            let stream = try #require(emulator.openStreams().first)
            #expect(stream.context.traits?["region"] == "North America")
            _ = initializeWithContext
        }
    }

    @Test("updateContext reconnects with the new context, then signs out to an anonymous one")
    func updateAndSignOutFollowsTheContext() async throws {
        try await withDocumentedClient { client, emulator in
            await client.initialize(context: ConfigDirectorContext(id: "12345"))
            var greetings = client.values(for: "region-greeting", default: "").makeAsyncIterator()
            #expect(await greetings.next() == "hello")

            await client.updateContext(
                ConfigDirectorContext(id: "654321", name: "Another User", traits: ["region": "Australia"])
            )
            #expect(client.context?.id == "654321")
            #expect(client.isReady)
            #expect(await greetings.next() == "g'day")

            await updateAndSignOut(client)
            #expect(client.context == ConfigDirectorContext(isAnonymous: true))
            #expect(client.context?.id == nil)
            #expect(await greetings.next() == "hello")
            let requests = emulator.recordedRequests(path: "/client/sse/v1")
            #expect(requests.count == 4)
        }
    }

    @Test("traits are written as literals of every kind and sent as JSON")
    func literalTraits() async throws {
        try await withDocumentedClient { client, emulator in
            await client.initialize()
            await updateWithLiteralTraits(client)
            #expect(client.context?.traits?["seats"] == 12)
            #expect(client.context?.traits?["regions"] == ["us-east", "eu-west"])
            let stream = try #require(emulator.openStreams().last)
            #expect(stream.context.traits?["beta"] == true)
            #expect(stream.context.name == "Ada Lovelace")
        }
    }
}
