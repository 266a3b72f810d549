import Observation
import TestSupport

/// Signals the next change of what `read` reads, as SwiftUI would re-render: `fired` once it did.
@MainActor
final class Change {
    let fired = Protected(false)
    private let signal: AsyncStream<Void>

    init(_ read: () -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        signal = stream
        withObservationTracking(read) { [fired] in
            fired.withLock { $0 = true }
            continuation.yield()
            continuation.finish()
        }
    }

    var hasFired: Bool { fired.withLock { $0 } }

    /// Waits for the change.
    func wait() async {
        for await _ in signal { return }
    }
}
