@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation

/// A clock that moves only when a test advances it, and remembers every sleep it was asked for.
final class ManualClock: TransportClock {
    private struct Sleeper {
        let id: Int
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Date(timeIntervalSince1970: 1_788_264_000)
        var sleepers: [Sleeper] = []
        var cancelledBeforeSleeping: Set<Int> = []
        var nextID = 0
        var requestedSleeps: [Double] = []
    }

    private let state = Protected(State())

    func now() -> Date { state.withLock(\.now) }

    /// Every duration a sleep was asked for, in order.
    var requestedSleeps: [Double] { state.withLock(\.requestedSleeps) }

    /// How many tasks are sleeping now.
    var sleeperCount: Int { state.withLock(\.sleepers.count) }

    func sleep(seconds: Double) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.requestedSleeps.append(seconds)
            return state.nextID
        }
        try Task.checkCancellation()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelledBeforeSleeping.remove(id) != nil { return .failure(CancellationError()) }
                    let deadline = state.now.addingTimeInterval(seconds)
                    if deadline <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeSleeping.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward, waking every sleeper whose time has come.
    func advance(by seconds: Double) {
        let due: [Sleeper] = state.withLock { state in
            state.now = state.now.addingTimeInterval(seconds)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due {
            sleeper.continuation.resume()
        }
    }
}
