@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A reader-writer lock made of one mutex per stripe, so that threads reading at once take different
/// mutexes and never share a cache line.
///
/// A reader locks the stripe of its thread (threads are given stripes in turn, on their first read)
/// and reads the state; it may also change that stripe's `Stripe` value, which only that stripe's
/// mutex guards. A writer locks every stripe and may change the state and every stripe. Reads are
/// therefore as cheap as an uncontended mutex, and writes cost one lock per stripe, which suits a
/// state read on every evaluation and changed a few times a second.
///
/// A writer never waits for a stripe while it holds another (see ``withLockAndStripes(_:)``), so that
/// the readers of the stripes it took never wait for as long as it does.
final class StripedLock<State, Stripe>: @unchecked Sendable {
    // `state` is read under any one stripe's mutex and changed under all of them; each stripe's
    // value is guarded by its own mutex.
    private let state: UnsafeMutablePointer<State>
    private let stripes: UnsafeMutableRawPointer
    private let stripeMask: Int
    /// Held by a writer from before it takes the stripes until after it lets them go: writers take
    /// turns, so that two never take stripes from each other.
    private let writers: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates the lock.
    /// - Parameters:
    ///   - state: The state that readers share.
    ///   - stripe: Makes the value of each stripe.
    init(_ state: State, stripe: () -> Stripe) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        let count = Self.stripeCount
        stripeMask = count - 1
        stripes = .allocate(byteCount: Self.stride * count, alignment: Self.alignment)
        writers = .allocate(capacity: 1)
        AdaptiveMutex.initialize(writers)
        for index in 0..<count {
            AdaptiveMutex.initialize(Self.mutex(in: stripes, at: index))
            Self.value(in: stripes, at: index).initialize(to: stripe())
        }
    }

    deinit {
        for index in 0...stripeMask {
            pthread_mutex_destroy(Self.mutex(in: stripes, at: index))
            Self.value(in: stripes, at: index).deinitialize(count: 1)
        }
        stripes.deallocate()
        pthread_mutex_destroy(writers)
        writers.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with the state and the calling thread's stripe, holding that stripe's mutex.
    ///
    /// The state is reached through a pointer, read-only. Reading a field through it copies the field,
    /// and a copy of a field that holds objects retains them, which makes threads reading at once
    /// write to the same memory (their reference counts): a hot reader reads plain values and reaches
    /// objects through references it does not retain (see ``EvaluationTable``). Passing the state
    /// `inout` would avoid the copies, but an `inout` access is a write, racing with the other readers.
    /// - Parameter body: Reads the state and reads or changes the stripe; it must not take this lock again.
    /// - Returns: What `body` returns.
    func read<Result>(_ body: (UnsafePointer<State>, inout Stripe) throws -> Result) rethrows -> Result {
        let index = currentThreadOrdinal() & stripeMask
        let mutex = Self.mutex(in: stripes, at: index)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(UnsafePointer(state), &Self.value(in: stripes, at: index).pointee)
    }

    /// Runs `body` with the state, holding every stripe's mutex.
    /// - Parameter body: Reads or changes the state; it must not take this lock again.
    /// - Returns: What `body` returns.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withLockAndStripes { state, _ in try body(&state) }
    }

    /// Runs `body` with the state and every stripe, holding every stripe's mutex.
    ///
    /// The writer waits for one stripe while it holds none, then takes each other one only if it comes
    /// free within a short spin (a reader holds its stripe for nanoseconds); when one does not, it lets
    /// every stripe go and waits for that one. A writer that waited for a stripe while it held the
    /// others held up their readers for as long: a reader that takes its stripe again at once keeps it
    /// from a sleeping writer until the reader is preempted, milliseconds on a busy machine (benchmark 11).
    /// - Parameter body: Reads or changes the state and the stripes; it must not take this lock again.
    /// - Returns: What `body` returns.
    func withLockAndStripes<Result>(_ body: (inout State, Stripes) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(writers)
        lockEveryStripe()
        defer {
            for index in 0...stripeMask { pthread_mutex_unlock(Self.mutex(in: stripes, at: index)) }
            pthread_mutex_unlock(writers)
        }
        return try body(&state.pointee, Stripes(base: stripes, count: stripeMask + 1))
    }

    /// Locks every stripe, never waiting for one while it holds another.
    private func lockEveryStripe() {
        var first = 0
        while true {
            pthread_mutex_lock(Self.mutex(in: stripes, at: first))
            var taken = 1
            while taken <= stripeMask, Self.lockSoon(Self.mutex(in: stripes, at: (first + taken) & stripeMask)) {
                taken += 1
            }
            if taken > stripeMask { return }
            for offset in 0..<taken { pthread_mutex_unlock(Self.mutex(in: stripes, at: (first + offset) & stripeMask)) }
            // Next, wait for the stripe that did not come free, holding none.
            first = (first + taken) & stripeMask
        }
    }

    /// Locks `mutex` if it comes free within ``spinLimit`` attempts.
    /// - Returns: Whether it locked it.
    private static func lockSoon(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Bool {
        for _ in 0..<spinLimit {
            if pthread_mutex_trylock(mutex) == 0 { return true }
        }
        return false
    }

    /// How many times a writer tries a stripe it is not waiting for: a few microseconds, many times a
    /// reader's hold, far less than a wait for a preempted reader.
    private static var spinLimit: Int { 200 }

    /// Runs `body` on each stripe's value in turn, holding that stripe's mutex alone: readers of the
    /// other stripes go on meanwhile.
    /// - Parameter body: Reads or changes one stripe; it must not take this lock again.
    func updateEachStripe(_ body: (inout Stripe) throws -> Void) rethrows {
        for index in 0...stripeMask {
            let mutex = Self.mutex(in: stripes, at: index)
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            try body(&Self.value(in: stripes, at: index).pointee)
        }
    }

    /// Every stripe's value, reachable while a writer holds every mutex.
    struct Stripes {
        fileprivate let base: UnsafeMutableRawPointer
        fileprivate let count: Int

        /// Runs `body` on each stripe's value in turn.
        func updateEach(_ body: (inout Stripe) throws -> Void) rethrows {
            for index in 0..<count { try body(&StripedLock.value(in: base, at: index).pointee) }
        }
    }

    // MARK: - Layout

    /// One stripe per two processors' worth of threads, as a power of two between 2 and 16, so that
    /// a thread of each core usually has a stripe to itself.
    private static var stripeCount: Int {
        let wanted = max(2, min(16, 2 * Processors.active))
        var count = 1
        while count < wanted { count <<= 1 }
        return count
    }

    /// Stripes start a cache line pair apart (128 bytes: the prefetch unit of current x86 and arm64
    /// cores), so that two stripes never share a line.
    private static var alignment: Int { 128 }

    private static var valueOffset: Int {
        let size = MemoryLayout<pthread_mutex_t>.size
        let valueAlignment = MemoryLayout<Stripe>.alignment
        return (size + valueAlignment - 1) / valueAlignment * valueAlignment
    }

    private static var stride: Int {
        let size = valueOffset + MemoryLayout<Stripe>.size
        return (size + alignment - 1) / alignment * alignment
    }

    private static func mutex(in base: UnsafeMutableRawPointer, at index: Int) -> UnsafeMutablePointer<pthread_mutex_t>
    {
        (base + index * stride).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    fileprivate static func value(in base: UnsafeMutableRawPointer, at index: Int) -> UnsafeMutablePointer<Stripe> {
        (base + index * stride + valueOffset).assumingMemoryBound(to: Stripe.self)
    }
}

/// The number of processors, read once.
private enum Processors {
    static let active = ProcessInfo.processInfo.activeProcessorCount
}

/// The thread-specific key holding each thread's ordinal plus one (zero: not assigned yet).
private let threadOrdinalKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// The ordinal the next thread to ask is given.
private let nextThreadOrdinal = Locked(0)

/// The calling thread's ordinal: threads are numbered in the order they first ask.
private func currentThreadOrdinal() -> Int {
    if let stored = pthread_getspecific(threadOrdinalKey) { return Int(bitPattern: stored) - 1 }
    let ordinal = nextThreadOrdinal.withLock { next in
        defer { next += 1 }
        return next
    }
    pthread_setspecific(threadOrdinalKey, UnsafeRawPointer(bitPattern: ordinal + 1))
    return ordinal
}
