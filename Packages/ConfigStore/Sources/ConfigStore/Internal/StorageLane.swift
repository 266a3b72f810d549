@_spi(Locking) internal import ConfigModel
internal import Foundation

/// One store's way to its storage: one blocking call at a time, on the shared ``StorageThreads``, given up
/// on after a timeout.
///
/// A call that has not returned by its timeout is abandoned: its caller goes on without its result, and a
/// call still waiting for a thread is withdrawn. One that a thread runs cannot be stopped, so until it
/// returns the lane makes no other call (``Outcome/stillBlocked``): a store on a hung mount holds one
/// thread, not one more per call.
final class StorageLane: Sendable {
    /// What became of a call.
    enum Outcome<Result> {
        /// The call returned this.
        case returned(Result)
        /// The call had not returned by the timeout.
        case timedOut
        /// A call abandoned before still runs; this one was not made.
        case stillBlocked
    }

    private let threads: StorageThreads
    private let timeout: TimeInterval
    private let schedule: KeptValuesStore.WriteScheduler
    /// Whether a call runs or waits for a thread.
    private let isBusy = Locked(false)

    init(threads: StorageThreads, timeout: TimeInterval, schedule: @escaping KeptValuesStore.WriteScheduler) {
        self.threads = threads
        self.timeout = timeout
        self.schedule = schedule
    }

    /// Runs `body`, which may block, on a storage thread, and suspends the caller until it returns or
    /// the timeout passes. Call it from one operation at a time (the store's serial queue).
    func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Outcome<Result> {
        let starts = isBusy.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard starts else { return .stillBlocked }
        return await withCheckedContinuation { continuation in
            let waiter = Locked<CheckedContinuation<Outcome<Result>, Never>?>(continuation)
            let isBusy = isBusy
            let job = threads.submit {
                let result = body()
                isBusy.withLock { $0 = false }
                waiter.withLock { $0.take() }?.resume(returning: .returned(result))
            }
            schedule(timeout) { [threads] in
                guard let continuation = waiter.withLock({ $0.take() }) else { return }
                if threads.withdraw(job) { isBusy.withLock { $0 = false } }
                continuation.resume(returning: .timedOut)
            }
        }
    }
}
