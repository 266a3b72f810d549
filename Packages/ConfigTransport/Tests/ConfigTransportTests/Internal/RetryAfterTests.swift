import Foundation
import Testing

@_spi(Internal) @_spi(Testing) @testable import ConfigTransport

@Suite("Retry-After", .timeLimit(.minutes(1)))
struct RetryAfterTests {
    private let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test("reads a number of seconds")
    func seconds() {
        #expect(RetryAfter.seconds(from: "120", now: now) == 120)
        #expect(RetryAfter.seconds(from: " 2 ", now: now) == 2)
    }

    @Test("reads an HTTP date in each of the three formats")
    func dates() {
        #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:50:37 GMT", now: now) == 60)
        #expect(RetryAfter.seconds(from: "Sunday, 06-Nov-94 08:51:37 GMT", now: now) == 120)
        #expect(RetryAfter.seconds(from: "Sun Nov 6 08:52:37 1994", now: now) == 180)
        #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
    }

    @Test("counts a date from the response's own Date header when it has one, else from the local time")
    func dateOfTheResponse() {
        let slowLocalClock = now.addingTimeInterval(-3600)
        let head = HTTPResponseHead(
            statusCode: 503,
            headers: ["Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Retry-After": "Sun, 06 Nov 1994 08:51:37 GMT"]
        )
        #expect(RetryAfter.seconds(in: head, localNow: slowLocalClock) == 120)
        let undated = HTTPResponseHead(statusCode: 503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:51:37 GMT"])
        #expect(RetryAfter.seconds(in: undated, localNow: slowLocalClock) == 3720)
        let badDate = HTTPResponseHead(statusCode: 503, headers: ["Date": "yesterday", "Retry-After": "30"])
        #expect(RetryAfter.seconds(in: badDate, localNow: now) == 30)
        #expect(RetryAfter.seconds(in: HTTPResponseHead(statusCode: 503), localNow: now) == nil)
    }

    @Test("ignores anything else")
    func garbage() {
        #expect(RetryAfter.seconds(from: "-5", now: now) == nil)
        #expect(RetryAfter.seconds(from: "1.5", now: now) == nil)
        #expect(RetryAfter.seconds(from: "soon", now: now) == nil)
        #expect(RetryAfter.seconds(from: "", now: now) == nil)
    }
}
