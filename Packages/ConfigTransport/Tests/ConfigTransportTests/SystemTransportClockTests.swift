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
}
