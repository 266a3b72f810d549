#if OpenFeature
@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigOpenFeature
import ConfigTesting
import OpenFeature
import TestSupport
import Testing

/// Context changes that OpenFeature makes while earlier ones still run (it never waits for a future
/// before dispatching the next call).
@Suite("Provider under overlapping context changes", .timeLimit(.minutes(1)))
struct ProviderOverlapTests {
    @Test("two context changes made at once, 500 rounds: the client ends on OpenFeature's newest context, never error")
    func overlappingChanges() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        await harness.register()
        let shared = UncheckedAPI(api: harness.api)
        let rounds = 500
        for round in 0..<rounds {
            async let first: Void = shared.api.setEvaluationContextAndWait(
                evaluationContext: ImmutableContext(targetingKey: "a-\(round)"))
            async let second: Void = shared.api.setEvaluationContextAndWait(
                evaluationContext: ImmutableContext(targetingKey: "b-\(round)"))
            _ = await (first, second)

            let newest = harness.api.getEvaluationContext()?.getTargetingKey()
            #expect(harness.testClient.client.context?.id == newest, "round \(round)")
            #expect(harness.testClient.contextUpdates.last?.id == newest, "round \(round)")
            #expect(harness.api.getProviderStatus() == .ready, "round \(round)")
        }
        // Every change reported reconciling; the last lifecycle event is the newest change's contextChanged.
        let settled = await harness.events.wait { events in
            let lifecycle = events.filter { $0.kind != .configurationChanged }
            return lifecycle.filter { $0.kind == .reconciling }.count == 2 * rounds
                && lifecycle.last?.kind == .contextChanged
        }
        #expect(settled)
        let kinds = harness.events.kinds
        #expect(!kinds.contains(.error))
        #expect(!kinds.contains(.stale))
        #expect(kinds.filter { $0 == .ready }.count == 1)
        // The contexts reached the client in the order OpenFeature made them: round after round.
        let roundsReceived = harness.testClient.contextUpdates.dropFirst().compactMap { $0.id?.dropFirst(2) }
            .compactMap { Int($0) }
        #expect(roundsReceived == roundsReceived.sorted())
    }

    @Test("a change made while another is held is reconciled after it, and only the newest reports contextChanged")
    func changeWhileHeld() async {
        let harness = ProviderHarness(values: ["new-checkout": true])
        defer { harness.stop() }
        await harness.register()
        harness.testClient.holdContextUpdate()
        let shared = UncheckedAPI(api: harness.api)

        let held = Task {
            await shared.api.setEvaluationContextAndWait(evaluationContext: ImmutableContext(targetingKey: "held"))
        }
        #expect(await harness.events.wait(for: .reconciling))
        // Held once it reached the client: a change superseded before its turn never reaches it.
        #expect(await eventually { harness.testClient.contextUpdates.count == 2 })
        let newer = Task {
            await shared.api.setEvaluationContextAndWait(evaluationContext: ImmutableContext(targetingKey: "newer"))
        }
        #expect(await harness.events.wait(for: .reconciling, count: 2))
        // The newer change waits for the held one: it has not reached the client.
        #expect(harness.testClient.contextUpdates.map(\.id) == ["user-123", "held"])

        harness.testClient.completeContextUpdate()
        await held.value
        await newer.value

        #expect(harness.testClient.contextUpdates.map(\.id) == ["user-123", "held", "newer"])
        #expect(harness.testClient.client.context?.id == "newer")
        #expect(await harness.events.wait(for: .contextChanged))
        #expect(
            harness.events.kinds.filter { $0 != .configurationChanged } == [
                .ready, .reconciling, .reconciling, .contextChanged,
            ])
    }
}
#endif
