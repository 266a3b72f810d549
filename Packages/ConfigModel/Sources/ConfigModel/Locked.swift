internal import Foundation

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A value guarded by a lock, for state shared across threads while the platform floor is iOS 15
/// (`Synchronization.Mutex` needs iOS 18). One type for every module of the SDK and its tools, behind
/// the `Locking` SPI: it is not part of the SDK's API.
///
/// On Linux the lock is a glibc adaptive mutex, which spins briefly before it sleeps: the critical
/// sections of an evaluation are a few dozen nanoseconds, far shorter than a sleep and a wake-up, so
/// that threads evaluating at once wait by spinning instead of going through the kernel. Elsewhere
/// it is an `NSLock`.
///
/// It is `Sendable` only when its value is: the lock makes the accesses exclusive, but a value that is
/// not `Sendable` could still escape `withLock` and be used from two threads.
@_spi(Locking)
public final class Locked<Value> {
    // Guarded by `lock`: every access to `value` goes through `withLock` or `withLockIfAvailable`.
    private var value: Value
    #if canImport(Glibc)
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    #else
    private let lock = NSLock()
    #endif

    /// Creates a lock around `value`.
    /// - Parameter value: The value to guard.
    public init(_ value: Value) {
        self.value = value
        #if canImport(Glibc)
        lock = .allocate(capacity: 1)
        AdaptiveMutex.initialize(lock)
        #endif
    }

    #if canImport(Glibc)
    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }
    #endif

    /// Runs `body` with the value while holding the lock.
    /// - Parameter body: Reads or changes the value; it must not take this lock again.
    /// - Returns: What `body` returns.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        #if canImport(Glibc)
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        #else
        lock.lock()
        defer { lock.unlock() }
        #endif
        return try body(&value)
    }

    /// Runs `body` with the value when the lock is free, without waiting for it.
    /// - Parameter body: Reads or changes the value; it must not take this lock again.
    /// - Returns: What `body` returns, or `nil` when another thread held the lock.
    public func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        #if canImport(Glibc)
        guard pthread_mutex_trylock(lock) == 0 else { return nil }
        defer { pthread_mutex_unlock(lock) }
        #else
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        #endif
        return try body(&value)
    }
}

// `@unchecked`: `lock` guards `value`, the only stored property that changes; `lock` itself is set once.
extension Locked: @unchecked Sendable where Value: Sendable {}

/// The one place the SDK sets up a mutex of its own (``Locked`` and the client's striped lock).
@_spi(Locking)
public enum AdaptiveMutex {
    /// Initializes the `pthread_mutex_t` that `mutex` points to (uninitialized memory of that type),
    /// adaptive where the platform has such mutexes (glibc): critical sections here last nanoseconds,
    /// so that a waiter spins briefly rather than sleeping. Destroy it with `pthread_mutex_destroy`.
    /// - Parameter mutex: The mutex's memory, bound to `pthread_mutex_t`.
    public static func initialize(_ mutex: UnsafeMutableRawPointer) {
        let mutex = mutex.assumingMemoryBound(to: pthread_mutex_t.self)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }
}
