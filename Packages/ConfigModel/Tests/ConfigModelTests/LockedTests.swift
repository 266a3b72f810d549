@_spi(Locking) import ConfigModel
import Foundation
import TestSupport
import Testing

/// `Locked`: `withLockIfAvailable` runs its body only when no other thread holds the lock, and never waits.
@Suite("Locked", .timeLimit(.minutes(1)))
struct LockedTests {
    @Test("withLockIfAvailable runs when the lock is free and gives up at once while another thread holds it")
    func withLockIfAvailable() async throws {
        let locked = Locked(0)
        #expect(
            locked.withLockIfAvailable { value -> Int in
                value += 1
                return value
            } == 1)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        Thread {
            locked.withLock { value in
                holding.signal()
                release.wait()
                value += 10
            }
            released.signal()
        }.start()
        try await offThePool { holding.wait() }
        #expect(
            locked.withLockIfAvailable { value -> Int in
                value += 100
                return value
            } == nil)
        release.signal()
        try await offThePool { released.wait() }
        #expect(locked.withLockIfAvailable { $0 } == 11, "the body that gave up changed nothing")
    }
}
