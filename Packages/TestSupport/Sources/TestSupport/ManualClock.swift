public import Foundation

/// A clock that moves only when a test advances it, so that timeouts, backoffs, flush timers and
/// coalesced writes run without waiting: the one fake clock of the test suites.
///
/// It has one rule for every wait, a sleep or a scheduled work: a wait of zero seconds or less ends at
/// once; any other ends when ``advance(by:)`` moves time to its deadline or past it; a sleep whose task is
/// cancelled, before or while it sleeps, throws `CancellationError` at once. It remembers the duration of
/// every wait it was asked for (``requestedDelays``). `TransportTestSupport` makes it a `TransportClock`.
///
/// Waits and ``uptime()`` follow the clock's monotonic time, which only ``advance(by:)`` moves; ``now()`` is
/// the wall time, which ``stepWallClock(by:)`` also sets forward or back, as an NTP step or a user would.
public final class ManualClock: Sendable {
    private struct Sleeper {
        let id: Int
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Work {
        let deadline: Date
        let run: @Sendable () -> Void
    }

    private struct State {
        /// The monotonic time, as a date: what waits are counted on.
        var now: Date
        /// How far the wall time is from it.
        var wallOffset: TimeInterval = 0
        var sleepers: [Sleeper] = []
        var works: [Work] = []
        var cancelledBeforeSleeping: Set<Int> = []
        var nextID = 0
        var requestedDelays: [Double] = []
    }

    private let state: Protected<State>
    private let start: Date

    /// A clock that starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.start = start
        state = Protected(State(now: start))
    }

    /// The clock's wall time.
    public func now() -> Date { state.withLock { $0.now.addingTimeInterval($0.wallOffset) } }

    /// The seconds that ``advance(by:)`` moved the clock since it started: its monotonic time.
    public func uptime() -> Double { state.withLock(\.now).timeIntervalSince(start) }

    /// Sets the wall time forward (or back, with a negative number) by `seconds`, without moving the monotonic
    /// time: no wait ends and ``uptime()`` does not change.
    public func stepWallClock(by seconds: Double) {
        state.withLock { $0.wallOffset += seconds }
    }

    /// Every duration a sleep or a scheduled work was asked for, in order.
    public var requestedDelays: [Double] { state.withLock(\.requestedDelays) }

    /// How many tasks are sleeping on the clock now.
    public var sleeperCount: Int { state.withLock(\.sleepers.count) }

    /// How many scheduled works wait for their deadline.
    public var scheduledCount: Int { state.withLock(\.works.count) }

    /// Suspends the calling task until time is advanced by `seconds`.
    /// - Throws: `CancellationError` when the task is cancelled, before or while it sleeps.
    public func sleep(seconds: Double) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.requestedDelays.append(seconds)
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

    /// Runs `work` once time is advanced by `delay` (at once when `delay` is zero or less), on the thread
    /// that advances it; the shape of `KeptValuesStore.WriteScheduler`.
    public func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        let runsNow = state.withLock { state in
            state.requestedDelays.append(delay)
            guard delay > 0 else { return true }
            state.works.append(Work(deadline: state.now.addingTimeInterval(delay), run: work))
            return false
        }
        if runsNow { work() }
    }

    /// Moves time forward, waking every sleeper and running every scheduled work whose time has come.
    public func advance(by seconds: Double) {
        let (sleepers, works) = state.withLock { state in
            state.now = state.now.addingTimeInterval(seconds)
            let now = state.now
            let sleepers = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            let works = state.works.filter { $0.deadline <= now }
            state.works.removeAll { $0.deadline <= now }
            return (sleepers, works)
        }
        for sleeper in sleepers { sleeper.continuation.resume() }
        for work in works { work.run() }
    }
}
