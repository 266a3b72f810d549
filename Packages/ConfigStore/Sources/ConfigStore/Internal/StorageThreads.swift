@_spi(Locking) internal import ConfigModel
internal import Foundation

/// The few threads that every store of the process runs its blocking storage calls on.
///
/// A call that blocks for ever (a hung network mount) holds one of them, never a thread per client: with
/// every thread held, later calls wait in line, and the store that made one gives up on it at its timeout
/// and withdraws it (``StorageLane``). A thread is started when a call finds every running thread busy,
/// up to ``width``, and ends when no call waits.
final class StorageThreads: Sendable {
    /// The threads of every store of the process.
    static let shared = StorageThreads(width: 4)

    /// The name of the threads, for diagnosis.
    static let threadName = "com.configdirector.storage"

    /// One call, run once by a thread unless it is withdrawn first.
    final class Job: Sendable {
        fileprivate let body: Locked<(@Sendable () -> Void)?>

        fileprivate init(_ body: @escaping @Sendable () -> Void) { self.body = Locked(body) }
    }

    private struct State {
        var waiting: [Job] = []
        var running = 0
    }

    /// The most threads running at once.
    let width: Int
    private let state = Locked(State())

    init(width: Int) { self.width = width }

    /// Runs `body` on one of the threads, after the calls submitted before it.
    /// - Returns: The job, to withdraw it while it waits.
    func submit(_ body: @escaping @Sendable () -> Void) -> Job {
        let job = Job(body)
        let startsThread = state.withLock { state -> Bool in
            state.waiting.append(job)
            guard state.running < width else { return false }
            state.running += 1
            return true
        }
        if startsThread {
            let thread = Thread { [self] in runWaitingJobs() }
            thread.name = Self.threadName
            thread.start()
        }
        return job
    }

    /// Withdraws `job` if no thread has taken it yet, releasing what its body holds.
    /// - Returns: Whether the job will never run.
    func withdraw(_ job: Job) -> Bool {
        state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0 === job }) else { return false }
            state.waiting.remove(at: index)
            job.body.withLock { $0 = nil }
            return true
        }
    }

    /// A thread's life: the waiting jobs, one after another, until none waits.
    private func runWaitingJobs() {
        while let job = nextJob() {
            let body = job.body.withLock { body in
                defer { body = nil }
                return body
            }
            body?()
        }
    }

    private func nextJob() -> Job? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
    }
}
