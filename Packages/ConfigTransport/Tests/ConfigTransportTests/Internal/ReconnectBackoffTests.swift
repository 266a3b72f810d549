@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import TestSupport
import Testing

@Suite("Reconnect backoff", .timeLimit(.minutes(1)))
struct ReconnectBackoffTests {
    @Test("the delay of attempts 1 to 12 lies in its band, half fixed and half jitter", arguments: 1...12)
    func bands(attempt: Int) {
        let ceiling = Double(1 << min(attempt, 9))
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: attempt, randomFraction: 0) == ceiling / 2)
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: attempt, randomFraction: 1) == ceiling)
        var generator = SplitMix64(seed: UInt64(attempt))
        for _ in 0..<100 {
            let delay = ReconnectBackoff.reconnectDelay(
                forAttempt: attempt,
                randomFraction: Double.random(in: 0...1, using: &generator)
            )
            #expect((ceiling / 2...ceiling).contains(delay))
        }
    }

    @Test("caps at 256 to 512 seconds and clamps a jitter outside 0...1")
    func cap() {
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: 100, randomFraction: 0) == 256)
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: 1, randomFraction: 7) == 2)
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: 1, randomFraction: -1) == 1)
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: 1, randomFraction: .nan) == 1)
    }

    @Test("a longer Retry-After wins, capped at one hour; a shorter one does not shorten the backoff")
    func retryAfter() {
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: 1, randomFraction: 0, retryAfter: 30) == 30)
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: 3, randomFraction: 0, retryAfter: 1) == 4)
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: 1, randomFraction: 0, retryAfter: 86_400) == 3600)
        #expect(ReconnectBackoff.reconnectDelay(forAttempt: 1, randomFraction: 0, retryAfter: nil) == 1)
    }
}
