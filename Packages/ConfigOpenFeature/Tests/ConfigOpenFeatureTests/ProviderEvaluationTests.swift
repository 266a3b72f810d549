#if OpenFeature
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) @testable import ConfigOpenFeature
@_spi(Testing) import ConfigTesting
import Foundation
import ModelTestSupport
import OpenFeature
import Testing

/// Evaluation through an OpenFeature `Client`: synchronous, never throwing, by the SDK's own rules.
@Suite("Provider evaluation", .timeLimit(.minutes(1)))
struct ProviderEvaluationTests {
    private static let values: [String: TestValue] = [
        "flag": true,
        "flag-text": "TRUE",
        "greeting": "hello",
        "max-items": 20,
        "big": 9_007_199_254_740_993,
        "fraction": 0.15,
        "negative-fraction": -2.9,
        "number-text": "12",
        "huge": 1e30,
        "ratio": 2.5,
        "settings": ["theme": "dark", "limit": 3, "scale": 1.5, "nested": ["on": true], "big": 9_007_199_254_740_993],
        "list": ["x", 2, 2.5],
    ]

    /// A registered provider around a test client serving `values`.
    private func registered() async -> ProviderHarness {
        let harness = ProviderHarness(values: Self.values)
        await harness.register()
        return harness
    }

    @Test("each getter returns the served value as value(for:default:) reads it")
    func servedValues() async {
        let harness = await registered()
        defer { harness.stop() }
        let client = harness.client

        #expect(client.getBooleanValue(key: "flag", defaultValue: false))
        #expect(client.getBooleanValue(key: "flag-text", defaultValue: false))
        #expect(client.getStringValue(key: "greeting", defaultValue: "none") == "hello")
        #expect(client.getIntegerValue(key: "max-items", defaultValue: 0) == 20)
        #expect(client.getIntegerValue(key: "number-text", defaultValue: 0) == 12)
        #expect(client.getDoubleValue(key: "ratio", defaultValue: 0) == 2.5)
        #expect(client.getDoubleValue(key: "max-items", defaultValue: 0) == 20)
        for key in ["flag", "flag-text", "greeting", "max-items", "ratio", "settings"] {
            #expect(
                client.getBooleanValue(key: key, defaultValue: false)
                    == harness.testClient.client.value(for: key, default: false))
            #expect(
                client.getStringValue(key: key, defaultValue: "d")
                    == harness.testClient.client.value(for: key, default: "d"))
            #expect(
                client.getDoubleValue(key: key, defaultValue: -1)
                    == harness.testClient.client.value(for: key, default: -1.0))
        }
    }

    @Test("getIntegerValue reads exact 64-bit text first, else truncates toward zero; out of range is the default")
    func integers() async {
        let harness = await registered()
        defer { harness.stop() }
        let client = harness.client

        #expect(client.getIntegerValue(key: "big", defaultValue: 0) == 9_007_199_254_740_993)
        #expect(client.getIntegerValue(key: "fraction", defaultValue: 7) == 0)
        #expect(client.getIntegerValue(key: "negative-fraction", defaultValue: 7) == -2)
        #expect(client.getIntegerValue(key: "huge", defaultValue: 7) == 7)
        #expect(client.getIntegerValue(key: "greeting", defaultValue: 7) == 7)
        #expect(OpenFeatureInteger(configValue: "9223372036854775807")?.value == .max)
        #expect(OpenFeatureInteger(configValue: "9223372036854775808") == nil)
    }

    @Test("getObjectValue gives a JSON object as .structure and an array as .list, integers exact")
    func objects() async {
        let harness = await registered()
        defer { harness.stop() }
        let client = harness.client

        let settings = client.getObjectValue(key: "settings", defaultValue: .structure([:]))
        #expect(
            settings
                == .structure([
                    "theme": .string("dark"), "limit": .integer(3), "scale": .double(1.5),
                    "nested": .structure(["on": .boolean(true)]), "big": .integer(9_007_199_254_740_993),
                ]))
        #expect(settings.asStructure()?["theme"]?.asString() == "dark")
        #expect(
            client.getObjectValue(key: "list", defaultValue: .null)
                == .list([.string("x"), .integer(2), .double(2.5)]))
        #expect(ConfigDirectorProvider.value(of: .null) == .null)
        #expect(ConfigDirectorProvider.value(of: .double(2)) == .integer(2))
        #expect(ConfigDirectorProvider.value(of: .double(1e30)) == .double(1e30))
    }

    @Test("a value that cannot be served resolves to the caller's exact default, dates included")
    func defaults() async {
        let harness = await registered()
        defer { harness.stop() }
        let client = harness.client
        let date = Date(timeIntervalSince1970: 1_767_323_045.678)
        let fallback = Value.structure(["when": .date(date), "list": .list([.null, .integer(1)])])

        #expect(client.getObjectValue(key: "missing", defaultValue: fallback) == fallback)
        #expect(client.getObjectValue(key: "greeting", defaultValue: fallback) == fallback)
        #expect(client.getObjectValue(key: "flag", defaultValue: .date(date)) == .date(date))
        #expect(client.getBooleanValue(key: "greeting", defaultValue: true))
        #expect(client.getStringValue(key: "missing", defaultValue: "none") == "none")
        #expect(client.getIntegerValue(key: "missing", defaultValue: -5) == -5)
        #expect(client.getDoubleValue(key: "greeting", defaultValue: 0.5) == 0.5)
    }

    @Test("a served value carries its value id as variant and in flagMetadata, with the reason unknown and its source")
    func variants() async {
        let harness = await registered()
        defer { harness.stop() }
        let client = harness.client

        let served = client.getBooleanDetails(key: "flag", defaultValue: false)
        #expect(served.value)
        #expect(served.variant == ValueID(of: "true").rawValue)
        #expect(served.reason == Reason.unknown.rawValue)
        #expect(served.errorCode == nil)
        #expect(served.flagMetadata["valueId"] == .string(ValueID(of: "true").rawValue))
        #expect(served.flagMetadata["valueSource"] == .string("live"))
        #expect(client.getIntegerDetails(key: "max-items", defaultValue: 0).variant == ValueID(of: "20").rawValue)
        #expect(client.getObjectDetails(key: "list", defaultValue: .null).variant != nil)

        let fallback = client.getStringDetails(key: "missing", defaultValue: "none")
        #expect(fallback.value == "none")
        #expect(fallback.variant == nil)
        #expect(fallback.flagMetadata["valueId"] == nil)
        #expect(client.getObjectDetails(key: "greeting", defaultValue: .null).variant == nil)
    }

    @Test(
        "getStringValue, getStringDetails and getStringEvaluation return an enum config's value, its value id as variant"
    )
    func enumValues() async throws {
        // `TestValue` has no enum literal: the client is served the set by ConfigTesting's in-memory server.
        let server = InMemoryServer(values: [:], logger: RecordingLogger())
        let valueID = ValueID(of: "gold").rawValue
        server.serve(
            ConfigSet(
                kind: .full, configs: ["plan": ConfigState(key: "plan", type: .enum, value: "gold", valueID: valueID)]))
        let configClient = try ConfigDirectorClient(
            clientSDKKey: "test-client",
            options: ConfigDirectorClientOptions(logger: RecordingLogger()),
            environment: ClientEnvironment(
                transportFactory: InMemoryTransportFactory(server: server), telemetry: .disabled)
        )
        defer { configClient.close() }
        let api = OpenFeatureAPI()
        let provider = ConfigDirectorProvider(injectedClient: configClient)
        await api.setProviderAndWait(provider: provider, initialContext: ImmutableContext(targetingKey: "user-123"))
        let client = api.getClient()

        #expect(client.getStringValue(key: "plan", defaultValue: "none") == "gold")
        let details = client.getStringDetails(key: "plan", defaultValue: "none")
        #expect(details.value == "gold")
        #expect(details.errorCode == nil)
        #expect(details.variant == valueID)
        #expect(details.reason == Reason.unknown.rawValue)
        let evaluation = provider.getStringEvaluation(key: "plan", defaultValue: "none", context: nil, logger: nil)
        #expect(evaluation.value == "gold")
        #expect(evaluation.variant == valueID)
        #expect(provider.getStringEvaluation(key: "plan", defaultValue: "none", context: nil).value == "gold")
    }

    @Test("a value set on the test client resolves at once")
    func setValueResolvesAtOnce() async {
        let harness = await registered()
        defer { harness.stop() }
        let client = harness.client

        harness.testClient.setValue(false, for: "flag")
        #expect(!client.getBooleanValue(key: "flag", defaultValue: true))
        harness.testClient.removeValue(for: "greeting")
        #expect(client.getStringValue(key: "greeting", defaultValue: "none") == "none")
    }
}
#endif
