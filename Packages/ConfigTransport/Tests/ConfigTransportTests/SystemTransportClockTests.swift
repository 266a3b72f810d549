@_spi(Internal) import ConfigTransport
import Foundation
import Testing

@Suite("System clock", .timeLimit(.minutes(1)))
struct SystemClockTests {
    @Test("the coarse time is the current time truncated to the second")
    func coarseNow() {
        let clock = SystemTransportClock()
        let before = clock.now().timeIntervalSince1970.rounded(.down)
        let coarse = clock.coarseNow().timeIntervalSince1970
        let after = clock.now().timeIntervalSince1970
        #expect(coarse == coarse.rounded(.down))
        #expect(coarse >= before)
        #expect(coarse <= after)
    }

    #if os(Linux)
    @Test("the uptime is the system's time since boot, suspensions included, as /proc/uptime gives it")
    func uptime() throws {
        // `/proc/uptime`'s first field, to the hundredth: the seconds since boot, as CLOCK_BOOTTIME counts them.
        func boot() throws -> Double {
            let text = try String(contentsOfFile: "/proc/uptime", encoding: .utf8)
            return try #require(text.split(separator: " ").first.flatMap { Double($0) })
        }
        let before = try boot()
        let uptime = SystemTransportClock().uptime()
        let after = try boot()
        #expect(before <= uptime && uptime <= after + 0.01, "\(before) ≤ \(uptime) ≤ \(after)")
        #expect(SystemTransportClock().uptime() >= uptime)
    }
    #endif
}
