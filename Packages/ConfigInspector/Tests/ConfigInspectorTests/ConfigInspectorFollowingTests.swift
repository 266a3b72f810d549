import ConfigClient
import ConfigModel
import ConfigTesting
import Testing

@testable import ConfigInspector

/// The model follows the client's events: each wait below ends on a change the model tells, never on a sleep.
@Suite("The inspector follows its client", .timeLimit(.minutes(1)))
@MainActor
struct ConfigInspectorFollowingTests {
    @Test("an override set from outside the inspector shows once the client announces it")
    func overrideFromOutside() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        let changes = model.changes()
        model.start()
        defer { model.stop() }

        client.setOverride(42, for: "max-items")
        #expect(await model.waitUntil(changes) { model.row(for: "max-items")?.valueText == "42" })
        #expect(model.row(for: "max-items")?.isOverridden == true)

        client.removeAllOverrides()
        #expect(await model.waitUntil(changes) { model.row(for: "max-items")?.valueText == "20" })
        #expect(model.row(for: "max-items")?.sourceText == "live")
    }

    @Test("the status follows the connection's health, which no event announces")
    func followsTheHealth() async throws {
        let testClient = makeTestClient(values: ["greeting": "hello"])
        let client = testClient.client
        defer { client.close() }
        await client.initialize()
        let model = ConfigInspectorModel(client: client)
        let changes = model.changes()
        model.start()
        defer { model.stop() }
        #expect(model.statusRows.first { $0.label == "Connection" }?.value == "streaming, connected")

        client.pauseNetwork()
        #expect(
            await model.waitUntil(changes) {
                model.statusRows.first { $0.label == "Connection" }?.value == "streaming, paused"
            })
    }

    @Test("live values that change show with their new value id, and the status follows readiness")
    func liveChange() async throws {
        let testClient = makeTestClient(values: ["greeting": "hello"])
        let client = testClient.client
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        #expect(model.statusRows.contains(InspectorInfoRow(label: "Ready", value: "no")))
        let changes = model.changes()
        model.start()
        defer { model.stop() }

        await client.initialize()
        #expect(await model.waitUntil(changes) { model.row(for: "greeting")?.valueText == "hello" })
        #expect(model.statusRows.contains(InspectorInfoRow(label: "Ready", value: "yes")))
        let firstID = model.row(for: "greeting")?.valueID

        testClient.setValue("bonjour", for: "greeting")
        #expect(await model.waitUntil(changes) { model.row(for: "greeting")?.valueText == "bonjour" })
        #expect(model.row(for: "greeting")?.valueID != firstID)
        #expect(model.row(for: "greeting")?.sourceText == "live")
    }

    @Test("a context change shows in the context section")
    func contextChange() async throws {
        let client = try await offlineClient(context: ConfigDirectorContext(id: "user-1"))
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        let changes = model.changes()
        model.start()
        defer { model.stop() }

        await client.updateContext(ConfigDirectorContext(id: "user-2", kind: "device"))
        #expect(await model.waitUntil(changes) { model.contextRows.first?.value == "user-2" })
        #expect(model.contextRows.contains(InspectorInfoRow(label: "Kind", value: "device")))
    }

    @Test("stop ends the model's task, after which the model keeps its snapshot until refreshed")
    func stop() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        model.start()
        let following = model.following
        #expect(following.count == 2)
        model.stop()
        for task in following { await task.value }  // the point after which nothing follows the client

        client.setOverride(42, for: "max-items")
        #expect(model.row(for: "max-items")?.valueText == "20")
        model.refresh()
        #expect(model.row(for: "max-items")?.valueText == "42")
    }

    @Test("a model released while it follows the client ends its task")
    func release() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        weak var released: ConfigInspectorModel?
        var following: [Task<Void, Never>] = []
        do {
            let model = ConfigInspectorModel(client: client)
            model.start()
            following = model.following
            released = model
        }
        #expect(released == nil)
        #expect(following.count == 2)
        for task in following { await task.value }
    }
}
