@_spi(Internal) import ConfigTransport
import Foundation
import TestSupport

/// A clock that records every delay it is asked to wait and then waits that delay times ``scale`` in
/// real time (1 for the real clock), so that a 30 s polling interval or a backoff passes in a fraction of a second while the
/// delay the SDK chose is still what a test asserts on. `now()` and `uptime()` are the real time.
final class ScaledClock: TransportClock {
    /// The factor from a requested delay to the real wait.
    let scale: Double
    private let requested = Protected<[Double]>([])

    init(scale: Double) {
        self.scale = scale
    }

    func now() -> Date { Date() }

    func uptime() -> Double { SystemTransportClock().uptime() }

    func sleep(seconds: Double) async throws {
        requested.withLock { $0.append(seconds) }
        try await SystemTransportClock().sleep(seconds: seconds * scale)
    }

    /// Every delay asked for, in the order asked.
    var requestedDelays: [Double] { requested.current }
}
