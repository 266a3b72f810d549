#if OpenFeature
@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) @testable import ConfigOpenFeature
import ConfigTesting
import Foundation
import OpenFeature
import Testing
import TestSupport

/// Creating, identifying and closing the provider.
@Suite("Provider creation and shutdown", .timeLimit(.minutes(1)))
struct ProviderCreationTests {
    @Test("metadata.name is ConfigDirectorProvider and there are no hooks")
    func identity() {
        let testClient = makeTestClient()
        defer { testClient.client.close() }
        let provider = ConfigDirectorProvider(injectedClient: testClient.client)
        #expect(provider.metadata.name == "ConfigDirectorProvider")
        #expect(provider.hooks.isEmpty)
        let api = OpenFeatureAPI()
        api.setProvider(provider: provider)
        #expect(api.getProviderMetadata()?.name == "ConfigDirectorProvider")
    }

    @Test("the initializers throw the four documented errors, and only for programming errors")
    func programmingErrors() throws {
        #expect(throws: ConfigDirectorError.missingClientSDKKey) { try ConfigDirectorProvider(clientSDKKey: " ") }
        #expect(throws: ConfigDirectorError.missingClientSDKKey) {
            try ConfigDirectorProvider(options: ConfigDirectorClientOptions())
        }
        let relative = try #require(URL(string: "configs/here"))
        #expect(throws: ConfigDirectorError.invalidBaseURL(relative)) {
            try ConfigDirectorProvider(
                clientSDKKey: "key",
                options: ConfigDirectorClientOptions(connection: ConnectionOptions(baseURL: relative))
            )
        }
        #expect(throws: ConfigDirectorError.valuesRequireOfflineMode) {
            try ConfigDirectorProvider(clientSDKKey: "key", options: ConfigDirectorClientOptions(values: ["a": true]))
        }
        #expect {
            try ConfigDirectorProvider(
                options: ConfigDirectorClientOptions(
                    connection: ConnectionOptions(mode: .offline), values: ["a": .float(.infinity)])
            )
        } throws: { error in
            if case .invalidOfflineValue(key: "a", reason: _) = error as? ConfigDirectorError { true } else { false }
        }
        let provider = try ConfigDirectorProvider(clientSDKKey: "key")
        #expect(provider.status == .notReady)
        provider.close()
    }

    @Test("in offline mode, setProviderAndWait returns at once with the provider ready and the values served")
    func offline() async throws {
        let provider = try ConfigDirectorProvider(
            options: ConfigDirectorClientOptions(
                connection: ConnectionOptions(mode: .offline),
                values: ["new-checkout": true, "max-items": 20]
            )
        )
        let api = OpenFeatureAPI()
        await api.setProviderAndWait(provider: provider, initialContext: ImmutableContext(targetingKey: "user-123"))

        #expect(api.getProviderStatus() == .ready)
        let client = api.getClient()
        #expect(client.getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(client.getIntegerValue(key: "max-items", defaultValue: 0) == 20)

        // close() closes the client the provider created: it serves nothing more.
        provider.close()
        provider.close()
        #expect(!client.getBooleanValue(key: "new-checkout", defaultValue: false))
        #expect(api.getProviderStatus() == .ready)
    }

    @Test("the provider never closes a client it was given, through close() or when it is released")
    func injectedClientStaysOpen() async {
        let testClient = makeTestClient(values: ["new-checkout": true])
        defer { testClient.client.close() }
        let api = OpenFeatureAPI()
        weak var released: ConfigDirectorProvider?
        do {
            let provider = ConfigDirectorProvider(injectedClient: testClient.client)
            released = provider
            await api.setProviderAndWait(provider: provider, initialContext: nil)
            provider.close()
        }
        #expect(testClient.client.value(for: "new-checkout", default: false))

        api.clearProvider()
        #expect(await eventually { released == nil })
        testClient.setValue(false, for: "new-checkout")
        #expect(testClient.client.value(for: "new-checkout", default: true) == false)
        #expect(testClient.client.isReady)
    }
}
#endif
