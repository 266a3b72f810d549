#if OpenFeature
@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) @testable import ConfigOpenFeature
import ConfigTesting
import Foundation
import OpenFeature
import Testing
import ModelTestSupport

/// The evaluation context as the client receives it, through `setProviderAndWait` and
/// `setEvaluationContextAndWait` (the reference page's table).
@Suite("Provider context mapping", .timeLimit(.minutes(1)))
struct ProviderContextTests {
    /// The context the client received for `evaluationContext`, set after an initial context.
    private func received(
        _ evaluationContext: ImmutableContext,
        logger: RecordingLogger = RecordingLogger()
    ) async -> ConfigDirectorContext? {
        let harness = ProviderHarness(logger: logger)
        defer { harness.stop() }
        await harness.register(ImmutableContext(targetingKey: "first"))
        await harness.api.setEvaluationContextAndWait(evaluationContext: evaluationContext)
        #expect(harness.testClient.contextUpdates.first == ConfigDirectorContext(id: "first"))
        return harness.testClient.contextUpdates.last
    }

    @Test("targeting key, kind, name, traits and anonymous map; other attributes are ignored")
    func everyField() async {
        let date = Date(timeIntervalSince1970: 1_767_323_045.678)
        let context = await received(
            ImmutableContext(
                targetingKey: "acme",
                structure: ImmutableStructure(attributes: [
                    "kind": .string("tenant"),
                    "name": .string("Acme Inc."),
                    "anonymous": .boolean(false),
                    "email": .string("ignored@example.com"),
                    "traits": .structure([
                        "plan": .string("enterprise"), "beta": .boolean(true), "seats": .integer(12),
                        "ratio": .double(0.5), "renews": .date(date), "regions": .list([.string("us"), .integer(2)]),
                        "owner": .structure(["id": .string("u1")]), "referrer": .null, "kind": .string("trait"),
                    ]),
                ])
            )
        )
        #expect(
            context
                == ConfigDirectorContext(
                    id: "acme", kind: "tenant", name: "Acme Inc.",
                    traits: [
                        "plan": "enterprise", "beta": true, "seats": 12, "ratio": 0.5,
                        "renews": "2026-01-02T03:04:05.678Z", "regions": ["us", 2], "owner": ["id": "u1"],
                        "referrer": nil, "kind": "trait",
                    ],
                    isAnonymous: false
                ))
    }

    @Test("without a targeting key an id attribute is the id: a string, or an integer in decimal")
    func idAttribute() async {
        #expect(await received(ImmutableContext(attributes: ["id": .string("u-1")]))?.id == "u-1")
        #expect(await received(ImmutableContext(attributes: ["id": .integer(42)]))?.id == "42")
        #expect(await received(ImmutableContext(attributes: ["id": .double(4.2)]))?.id == nil)
        #expect(
            await received(
                ImmutableContext(targetingKey: "key", structure: ImmutableStructure(attributes: ["id": .string("u-1")]))
            )?
            .id == "key")
    }

    @Test("name, traits and anonymous of another type, and empty traits, are left out")
    func wrongTypes() async {
        let context = await received(
            ImmutableContext(
                targetingKey: "u",
                structure: ImmutableStructure(attributes: [
                    "name": .integer(1), "traits": .structure([:]), "anonymous": .string("yes"), "kind": .integer(3),
                ])
            )
        )
        #expect(context == ConfigDirectorContext(id: "u"))
    }

    @Test("an invalid kind is logged once as an error and evaluated as no context")
    func invalidKind() async {
        let logger = RecordingLogger()
        let context = await received(
            ImmutableContext(
                targetingKey: "acme",
                structure: ImmutableStructure(attributes: ["kind": .string("Not A Kind")])
            ),
            logger: logger
        )
        #expect(context == ConfigDirectorContext())
        #expect(logger.messages(at: .error).filter { $0.contains("Not A Kind") }.count == 1)
    }
}
#endif
