#if OpenFeature
@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigOpenFeature
import ConfigTesting
import OpenFeature
import Testing

/// The provider inside OpenFeature's own `MultiProvider` with its `FirstMatchStrategy`, which moves
/// to the next provider only when one answers `flagNotFound`.
@Suite("Provider in OpenFeature's MultiProvider", .timeLimit(.minutes(1)))
struct ProviderMultiProviderTests {
    @Test(
        "FirstMatchStrategy serves ConfigDirector's keys from it, and falls through to the next provider for the rest")
    func fallsThrough() async {
        let first = makeTestClient(values: ["dark-mode": true, "shared": "from-first", "greeting": "hello"])
        let second = makeTestClient(values: ["only-second": 42, "shared": "from-second", "flag": true])
        defer {
            first.client.close()
            second.client.close()
        }
        let multi = MultiProvider(
            providers: [
                ConfigDirectorProvider(injectedClient: first.client),
                ConfigDirectorProvider(injectedClient: second.client),
            ],
            strategy: FirstMatchStrategy()
        )
        let api = OpenFeatureAPI()
        await api.setProviderAndWait(provider: multi, initialContext: ImmutableContext(targetingKey: "user-123"))
        #expect(api.getProviderStatus() == .ready)
        let client = api.getClient()

        #expect(client.getBooleanValue(key: "dark-mode", defaultValue: false))
        #expect(client.getStringValue(key: "shared", defaultValue: "") == "from-first")
        let fallThrough = client.getIntegerDetails(key: "only-second", defaultValue: 0)
        #expect(fallThrough.value == 42)
        #expect(fallThrough.errorCode == nil)
        #expect(fallThrough.variant == ValueID(of: "42").rawValue)

        // A key neither holds: OpenFeature's own flagNotFound, with the default.
        let nowhere = client.getBooleanDetails(key: "nowhere", defaultValue: true)
        #expect(nowhere.value)
        #expect(nowhere.errorCode == .flagNotFound)

        // Any other error of the first provider stops the strategy there: a type mismatch is not a fall-through.
        let mismatch = client.getBooleanDetails(key: "greeting", defaultValue: false)
        #expect(mismatch.errorCode == .parseError)
        #expect(client.getBooleanDetails(key: "flag", defaultValue: false).value)

        // Live changes keep following the same rules.
        first.setValue("first-only", for: "only-second")
        #expect(client.getStringValue(key: "only-second", defaultValue: "") == "first-only")
        first.removeValue(for: "only-second")
        #expect(client.getIntegerValue(key: "only-second", defaultValue: 0) == 42)
    }
}
#endif
