@_spi(Internal) import ConfigModel
import Foundation
import Testing

@Suite("A URL's text for the logs", .timeLimit(.minutes(1)))
struct URLRedactedTextTests {
    @Test(
        "writes the user info of a URL as ***, and leaves a URL without it as it is",
        arguments: [
            ("http://user:secret@example.com:8080/path?q=1", "http://***@example.com:8080/path?q=1"),
            ("https://token@example.com/", "https://***@example.com/"),
            ("https://:secret@example.com", "https://***@example.com"),
            ("https://us%40er:p%3Ass@example.com", "https://***@example.com"),
            ("https://example.com:8443/client", "https://example.com:8443/client"),
            ("http://127.0.0.1:1", "http://127.0.0.1:1"),
        ]
    )
    func redacts(url: String, text: String) throws {
        #expect(try #require(URL(string: url)).redactedText == text)
    }

    @Test("the error of an invalid base URL quotes it without its credentials")
    func invalidBaseURL() throws {
        let url = try #require(URL(string: "http://user:secret@/client"))
        let text = ConfigDirectorError.invalidBaseURL(url).localizedDescription
        #expect(text.contains("'http://***@/client'"))
        #expect(!text.contains("secret"))
    }
}
