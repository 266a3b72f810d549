import Foundation
import TestSupport
import Testing

@_spi(Internal) @_spi(Testing) @testable import ConfigTransport

@Suite("ISO 8601 timestamps", .timeLimit(.minutes(1)))
struct ISO8601MillisecondsTests {
    @Test("writes UTC with milliseconds")
    func format() {
        #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(
            ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: 1_788_264_000.123))
                == "2026-09-01T12:00:00.123Z"
        )
        #expect(
            ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z"
        )
        #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
    }

    @Test("agrees with ISO8601DateFormatter on seeded random dates")
    func agreesWithFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let milliseconds = Double(Int64.random(in: 0...4_102_444_800_000, using: &generator))
            let date = Date(timeIntervalSince1970: milliseconds / 1000)
            let expected = formatter.string(from: Date(timeIntervalSince1970: milliseconds / 1000))
            #expect(ISO8601Milliseconds.string(from: date) == expected)
        }
    }
}
