@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigStore
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// The seams the OpenFeature provider builds on: resolutions with the value id, and the sdkName initializer.
@Suite("Resolutions for the OpenFeature provider", .timeLimit(.minutes(1)))
struct ResolutionTests {
    typealias Theme = EvaluationTests.Theme

    @Test("a resolution returns what value(for:default:) returns, with the served value's id")
    func resolutionsMatchValues() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client

        #expect(client.resolution(for: "dark-mode", default: false).value == true)
        #expect(client.resolution(for: "dark-mode", default: false).valueID == "on")
        #expect(client.resolution(for: "max-items", default: 0).valueID == ValueID(of: "20").rawValue)
        #expect(client.resolution(for: "ratio", default: 0).value == 2)
        for key in ["dark-mode", "max-items", "ratio", "greeting", "theme", "empty", "missing"] {
            #expect(client.resolution(for: key, default: false).value == client.value(for: key, default: false))
            #expect(client.resolution(for: key, default: -1).value == client.value(for: key, default: -1))
            #expect(client.resolution(for: key, default: "d").value == client.value(for: key, default: "d"))
        }
        #expect(client.resolution(for: "missing", default: 7).valueID == nil)
        #expect(client.resolution(for: "greeting", default: false).valueID == nil)
        #expect(client.resolution(for: "empty", default: "fallback").valueID == nil)

        let fallback = Theme(primary: "", cornerRadius: 0)
        let theme = client.resolution(for: "theme", as: Theme.self, default: fallback, defaultText: "{}")
        #expect(theme.value == Theme(primary: "#101010", cornerRadius: 8))
        #expect(theme.valueID != nil)
        let notJSON = client.resolution(for: "greeting", as: Theme.self, default: fallback, defaultText: "{}")
        #expect(notJSON.value == fallback)
        #expect(notJSON.valueID == nil)
    }

    @Test("a resolution is published on evaluations as value(for:default:) is")
    func resolutionsArePublished() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "user-1"))
        var evaluations = fixture.client.evaluations.makeAsyncIterator()

        _ = fixture.client.resolution(for: "dark-mode", default: false)
        _ = fixture.client.resolution(for: "missing", default: 3)

        let served = try #require(await evaluations.next())
        #expect(served.key == "dark-mode")
        #expect(served.valueID == "on")
        #expect(served.reason == .foundMatch)
        let missing = try #require(await evaluations.next())
        #expect(missing.key == "missing")
        #expect(missing.isDefaultValue)
        #expect(missing.reason == .configStateMissing)
    }

    @Test("a resolution carries the evaluation's reason, the config's type and where the values came from")
    func reasonsAndSources() async throws {
        let fixture = try ClientFixture(
            caching: CachingOptions(enabled: false), bundledValues: BundledValues(["dark-mode": false]))
        defer { fixture.client.close() }
        let client = fixture.client

        let bundled = client.resolution(for: "dark-mode", default: true)
        #expect(bundled.reason == .foundMatch)
        #expect(bundled.source == .bundledValues)
        #expect(bundled.configType == .boolean)
        #expect(client.resolution(for: "missing", default: true).reason == .clientNotReady)
        #expect(client.resolution(for: "missing", default: true).source == .bundledValues)

        await client.initialize()
        let live = client.resolution(for: "dark-mode", default: false)
        #expect(live.source == .live)
        #expect(live.valueID == "on")
        let missing = client.resolution(for: "missing", default: 1)
        #expect(missing.reason == .configStateMissing)
        #expect(missing.source == .live)
        #expect(missing.configType == nil)
        #expect(client.resolution(for: "max-items", default: false).reason == .typeMismatch)
        #expect(client.resolution(for: "greeting", default: 0).reason == .invalidNumber)
        #expect(client.resolution(for: "greeting", default: 0).configType == .string)
        #expect(client.resolution(for: "empty", default: "d").reason == .valueMissing)
        let theme = client.resolution(for: "greeting", as: [String: Int].self, default: [:], defaultText: "{}")
        #expect(theme.reason == .typeMismatch)
    }

    @Test("refusal is the refusal for good that stopped the newest connect, cleared by the next connect")
    func refusal() async throws {
        let refused = ConfigDirectorError.connectionFailed(message: "Unauthorized", statusCode: 401)
        let fixture = try ClientFixture(answer: .fail(refused))
        defer { fixture.client.close() }
        #expect(fixture.client.refusal == nil)

        await fixture.client.initialize()
        #expect(fixture.client.refusal == refused)
        #expect(!fixture.client.isReady)

        try fixture.transport.answerEveryConnect(.deliver(.sample))
        await fixture.client.updateContext(ConfigDirectorContext(id: "user-2"))
        #expect(fixture.client.refusal == nil)
        #expect(fixture.client.isReady)
    }

    @Test("the sdkName initializer validates its options as the public initializers do")
    func sdkNameInitializer() throws {
        #expect(throws: ConfigDirectorError.missingClientSDKKey) {
            try ConfigDirectorClient(
                clientSDKKey: " ", options: ConfigDirectorClientOptions(),
                sdkName: ConfigDirectorSDK.openFeatureProviderSDKName)
        }
        let offline = try ConfigDirectorClient(
            clientSDKKey: "",
            options: ConfigDirectorClientOptions(connection: ConnectionOptions(mode: .offline), values: ["a": true]),
            sdkName: ConfigDirectorSDK.openFeatureProviderSDKName
        )
        defer { offline.close() }
        #expect(!offline.isReady)
    }
}
