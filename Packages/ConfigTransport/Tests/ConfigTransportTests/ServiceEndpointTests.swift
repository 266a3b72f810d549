@_spi(Internal) import ConfigTransport
import Foundation
import Testing

@Suite("Service endpoints", .timeLimit(.minutes(1)))
struct ServiceEndpointTests {
    @Test("appends the paths to the default base URL")
    func defaultBase() {
        let endpoint = ServiceEndpoint()
        #expect(endpoint.streaming.absoluteString == "https://client-sdk-api.configdirector.com/client/sse/v1")
        #expect(endpoint.polling.absoluteString == "https://client-sdk-api.configdirector.com/client/polling/v1")
        #expect(endpoint.telemetry.absoluteString == "https://client-sdk-api.configdirector.com/client/telemetry/v1")
    }

    @Test("keeps a base path, with or without a trailing slash")
    func basePath() throws {
        for base in ["https://proxy.example.com/cd", "https://proxy.example.com/cd/"] {
            let endpoint = ServiceEndpoint(baseURL: try #require(URL(string: base)))
            #expect(endpoint.streaming.absoluteString == "https://proxy.example.com/cd/client/sse/v1")
        }
    }

    @Test("accepts only URLs with a scheme and a host")
    func validation() throws {
        #expect(ServiceEndpoint.isValidBaseURL(try #require(URL(string: "http://127.0.0.1:8080"))))
        #expect(!ServiceEndpoint.isValidBaseURL(try #require(URL(string: "/relative/path"))))
        #expect(!ServiceEndpoint.isValidBaseURL(try #require(URL(string: "proxy.example.com"))))
    }
}
