@_spi(Internal) @_spi(Testing) import ConfigTransport
import Testing

@Suite("HTTP response head", .timeLimit(.minutes(1)))
struct HTTPResponseHeadTests {
    @Test("finds a header field whatever the case of its name")
    func caseInsensitive() {
        let head = HTTPResponseHead(statusCode: 503, headers: ["Retry-After": "2", "content-type": "text/plain"])
        #expect(head.value(forHeader: "retry-after") == "2")
        #expect(head.value(forHeader: "RETRY-AFTER") == "2")
        #expect(head.value(forHeader: "Content-Type") == "text/plain")
        #expect(head.value(forHeader: "Location") == nil)
    }
}
