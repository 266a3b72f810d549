import ConfigModel
import Foundation
import Testing

@Suite("Errors", .timeLimit(.minutes(1)))
struct ConfigDirectorErrorTests {
    @Test("say that no client SDK key was given and the client cannot be created without one")
    func missingKey() {
        let text = ConfigDirectorError.missingClientSDKKey.localizedDescription
        #expect(text.contains("No client SDK key was given"))
        #expect(text.contains("cannot be created without one"))
        #expect(text.contains("'SDK keys'"))
        #expect(text.contains(".offline"))
    }

    @Test("carry the invalid base URL, say it must be absolute and quote it")
    func invalidBaseURL() throws {
        let url = try #require(URL(string: "proxy.example.com"))
        let error = ConfigDirectorError.invalidBaseURL(url)
        guard case .invalidBaseURL(let carried) = error else {
            Issue.record("not invalidBaseURL: \(error)")
            return
        }
        #expect(carried == url)
        #expect(error.localizedDescription.contains("must be absolute"))
        #expect(error.localizedDescription.contains("'proxy.example.com'"))
    }

    @Test("say that values need offline mode")
    func valuesRequireOfflineMode() {
        let text = ConfigDirectorError.valuesRequireOfflineMode.localizedDescription
        #expect(text.contains(".offline"))
        #expect(text.contains("remove the values"))
    }

    @Test("name the key of an invalid offline value and say why it is invalid")
    func invalidOfflineValue() {
        let error = ConfigDirectorError.invalidOfflineValue(key: "theme", reason: "a double must be finite")
        #expect(error.localizedDescription.contains("'theme'"))
        #expect(error.localizedDescription.contains("a double must be finite"))
        #expect(error.localizedDescription.contains("Change or remove"))
    }

    @Test("a refused connection is its message followed by the HTTP status, when there is one")
    func connectionFailed() {
        let withStatus = ConfigDirectorError.connectionFailed(message: "Unknown SDK key", statusCode: 401)
        #expect(withStatus.localizedDescription == "Unknown SDK key (HTTP 401)")
        let withoutStatus = ConfigDirectorError.connectionFailed(message: "TLS failure", statusCode: nil)
        #expect(withoutStatus.localizedDescription == "TLS failure")
    }

    @Test("are localized errors whose description, error description and localized description agree")
    func localizedError() {
        let errors: [ConfigDirectorError] = [
            .missingClientSDKKey, .valuesRequireOfflineMode, .invalidOfflineValue(key: "k", reason: "r"),
            .connectionFailed(message: "m", statusCode: 403),
        ]
        for error in errors {
            let localized: any LocalizedError = error
            #expect(localized.errorDescription == error.localizedDescription)
            #expect(error.description == error.localizedDescription)
        }
    }

    @Test("are equal only with equal associated values")
    func equality() throws {
        let a = try #require(URL(string: "a"))
        let b = try #require(URL(string: "b"))
        #expect(ConfigDirectorError.invalidBaseURL(a) == .invalidBaseURL(a))
        #expect(ConfigDirectorError.invalidBaseURL(a) != .invalidBaseURL(b))
        #expect(
            ConfigDirectorError.connectionFailed(message: "m", statusCode: 401)
                != .connectionFailed(message: "m", statusCode: 403)
        )
        #expect(
            ConfigDirectorError.invalidOfflineValue(key: "k", reason: "r")
                != .invalidOfflineValue(key: "j", reason: "r"))
    }
}
