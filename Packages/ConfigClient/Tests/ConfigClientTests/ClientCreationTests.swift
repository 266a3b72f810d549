@_spi(Testing) import ClientTestSupport
@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@_spi(Internal) @_spi(Testing) @testable import ConfigClient

@Suite("Creating a client", .timeLimit(.minutes(1)))
struct ClientCreationTests {
    @Test("a blank SDK key is a programming error", arguments: ["", "   ", "\n\t"])
    func blankKey(key: String) {
        #expect(throws: ConfigDirectorError.missingClientSDKKey) { try ConfigDirectorClient(clientSDKKey: key) }
    }

    @Test("a base URL without a scheme or host is a programming error")
    func invalidBaseURL() throws {
        let url = try #require(URL(string: "/only/a/path"))
        let options = ConfigDirectorClientOptions(connection: ConnectionOptions(baseURL: url))
        #expect(throws: ConfigDirectorError.invalidBaseURL(url)) {
            try ConfigDirectorClient(clientSDKKey: "key", options: options)
        }
    }

    @Test("a plain-http base URL is allowed with one warning")
    func httpBaseURL() throws {
        let logger = RecordingLogger(forbidding: RecordingLogger.sdkKeys)
        let url = try #require(URL(string: "http://127.0.0.1:8080"))
        let options = ConfigDirectorClientOptions(connection: ConnectionOptions(baseURL: url), logger: logger)
        let client = try ConfigDirectorClient(clientSDKKey: "key", options: options)
        defer { client.close() }
        #expect(logger.messages(at: .warn).count == 1)
    }

    @Test("values outside offline mode are a programming error")
    func valuesRequireOfflineMode() {
        let options = ConfigDirectorClientOptions(values: ["beta": true])
        #expect(throws: ConfigDirectorError.valuesRequireOfflineMode) {
            try ConfigDirectorClient(clientSDKKey: "key", options: options)
        }
    }

    @Test("offline mode without values still needs the offline mode")
    func offlineInitializerNeedsOfflineMode() {
        #expect(throws: ConfigDirectorError.missingClientSDKKey) {
            try ConfigDirectorClient(options: ConfigDirectorClientOptions())
        }
    }

    @Test(
        "an offline value that cannot be served says which key and why",
        arguments: [
            ("", ServedValue.boolean(true), "the key is blank"),
            ("ratio", ServedValue.float(.nan), "is not a finite number"),
            ("theme", ServedValue.object(["limit": .float(.infinity)]), "is not a finite number"),
        ])
    func invalidOfflineValue(key: String, value: ServedValue, reason: String) {
        let options = ConfigDirectorClientOptions(connection: ConnectionOptions(mode: .offline), values: [key: value])
        #expect {
            try ConfigDirectorClient(options: options)
        } throws: { error in
            guard case .invalidOfflineValue(let failingKey, let why) = error as? ConfigDirectorError else {
                return false
            }
            return failingKey == key && why.contains(reason)
        }
    }

    @Test("creating a client makes no connection")
    func noNetworkOnCreation() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        // Once the client went quiet, a connect or task the creation had started has ended.
        await fixture.client.core.wentQuiet()
        #expect(try fixture.factory.transportsMade == 0)
        #expect(!fixture.client.isReady)
        #expect(!fixture.client.isInitializing)
        #expect(fixture.client.context == nil)
    }
}
