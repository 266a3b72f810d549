import ConfigModel
import Testing

@Suite("Errors")
struct ConfigDirectorErrorTests {
    @Test("say the SDK key is blank and where to find one")
    func missingKey() {
        let text = ConfigDirectorError.missingClientSDKKey.description
        #expect(text.contains("client SDK key is blank"))
        #expect(text.contains("'SDK keys'"))
        #expect(text.contains(".offline"))
    }

    @Test("quote the invalid base URL and say what a valid one looks like")
    func invalidBaseURL() {
        let text = ConfigDirectorError.invalidBaseURL("proxy.example.com").description
        #expect(text.contains("'proxy.example.com'"))
        #expect(text.contains("scheme and a host"))
        #expect(text.contains("https://"))
    }

    @Test("say that values need offline mode")
    func valuesRequireOfflineMode() {
        let text = ConfigDirectorError.valuesRequireOfflineMode.description
        #expect(text.contains(".offline"))
        #expect(text.contains("remove the values"))
    }

    @Test("name the key of an invalid offline value and say why it is invalid")
    func invalidOfflineValue() {
        let text = ConfigDirectorError.invalidOfflineValue(key: "theme", reason: "a double must be finite").description
        #expect(text.contains("'theme'"))
        #expect(text.contains("a double must be finite"))
        #expect(text.contains("Change or remove"))
    }

    @Test("give the status and message of a refused connection and what to check")
    func connectionFailed() {
        let withStatus = ConfigDirectorError.connectionFailed(message: "Unknown SDK key", statusCode: 401).description
        #expect(withStatus.hasPrefix("ConfigDirector refused the connection with status 401: Unknown SDK key."))
        #expect(withStatus.contains("client SDK key"))
        let withoutStatus = ConfigDirectorError.connectionFailed(message: "TLS failure", statusCode: nil).description
        #expect(withoutStatus.hasPrefix("ConfigDirector refused the connection: TLS failure."))
        #expect(!withoutStatus.contains("status"))
    }

    @Test("are equal only with equal associated values")
    func equality() {
        #expect(ConfigDirectorError.invalidBaseURL("a") == .invalidBaseURL("a"))
        #expect(ConfigDirectorError.invalidBaseURL("a") != .invalidBaseURL("b"))
        #expect(
            ConfigDirectorError.connectionFailed(message: "m", statusCode: 401)
                != .connectionFailed(message: "m", statusCode: 403)
        )
        #expect(
            ConfigDirectorError.invalidOfflineValue(key: "k", reason: "r")
                != .invalidOfflineValue(key: "j", reason: "r"))
    }
}
