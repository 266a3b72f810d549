@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@testable @_spi(Internal) import ConfigTransport

@Suite("The outage log's budget", .timeLimit(.minutes(1)))
struct OutageLogTests {
    let clock = ManualClock()
    let logger = RecordingLogger()

    private var loud: [ConfigDirectorLogLevel] {
        logger.entries.map(\.level).filter { $0 != .debug }
    }

    @Test("an outage warns once, again at its fifth attempt, and says once that it ended with its attempt count")
    func oneOutage() {
        let outage = OutageLog(logger: logger, clock: clock)
        outage.recovered("healthy")
        #expect(logger.entries.isEmpty, "no outage, nothing to say")
        for attempt in 1...12 {
            outage.transientFailure("failed \(attempt)")
            clock.advance(by: 1)
        }
        outage.recovered("delivering again.")
        #expect(loud == [.warn, .warn, .info])
        #expect(logger.messages(at: .warn) == ["failed 1", "failed 5 It is still failing after 5 attempts."])
        #expect(logger.messages(at: .info) == ["delivering again. It reconnected after 12 failed attempts."])
        #expect(logger.messages(at: .debug).count == 10)
    }

    @Test("a failure within 60 s of a recovery continues the outage; one after 60 s starts a new one")
    func recoveryWindow() {
        let outage = OutageLog(logger: logger, clock: clock)
        outage.transientFailure("down")
        outage.recovered("up.")
        clock.advance(by: OutageLog.recoveryWindow - 1)
        outage.transientFailure("down again")
        outage.recovered("up again.")
        #expect(loud == [.warn, .info], "the flap is the same outage, told at debug level")
        clock.advance(by: OutageLog.recoveryWindow)
        outage.transientFailure("a new outage")
        #expect(loud == [.warn, .info, .warn])
        #expect(logger.messages(at: .warn).last == "a new outage")
    }

    @Test("the 60 s after a recovery are counted on the monotonic clock: a wall clock set back an hour changes nothing")
    func recoveryWindowAcrossAWallClockStep() {
        let outage = OutageLog(logger: logger, clock: clock)
        outage.transientFailure("down")
        outage.recovered("up.")
        clock.stepWallClock(by: -3_600)
        clock.advance(by: OutageLog.recoveryWindow)
        outage.transientFailure("a new outage")
        #expect(loud == [.warn, .info, .warn])
        clock.stepWallClock(by: 86_400)
        outage.recovered("up.")
        outage.transientFailure("the same outage")
        #expect(loud == [.warn, .info, .warn, .info], "a day of wall time is not 60 s")
    }
}
