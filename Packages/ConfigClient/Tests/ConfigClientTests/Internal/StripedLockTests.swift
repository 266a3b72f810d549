import Foundation
import TestSupport
import Testing

@testable @_spi(Internal) import ConfigClient

/// `StripedLock`'s promises: a reader holds its own stripe's mutex (so that readers' changes to their
/// stripe never race), a writer holds every stripe (so that it sees and changes everything alone), and
/// the stripes' values live as long as the lock.
@Suite("StripedLock", .timeLimit(.minutes(1)))
struct StripedLockTests {
    @Test("a read sees what the last write left")
    func readSeesWrite() {
        let lock = StripedLock(1, stripe: { 0 })
        #expect(lock.read { state, _ in state.pointee } == 1)
        lock.withLock { $0 = 42 }
        #expect(lock.read { state, _ in state.pointee } == 42)
    }

    @Test("a read changes its own stripe alone, and a writer sees every stripe")
    func readChangesOwnStripe() {
        let lock = StripedLock((), stripe: { 0 })
        lock.read { _, stripe in stripe += 1 }
        lock.read { _, stripe in stripe += 1 }
        // The same thread reads its stripe again.
        #expect(lock.read { _, stripe in stripe } == 2)
        let values = lock.withLockAndStripes { _, stripes in
            var values: [Int] = []
            stripes.updateEach { values.append($0) }
            return values
        }
        #expect(values.count >= 2)
        #expect(values.count & (values.count - 1) == 0, "a power of two")
        #expect(values.reduce(0, +) == 2)
        #expect(values.filter { $0 != 0 }.count == 1)
    }

    @Test("updateEachStripe visits every stripe once")
    func updateEachStripeVisitsEveryStripe() {
        let lock = StripedLock((), stripe: { 0 })
        var visited = 0
        lock.updateEachStripe { stripe in
            stripe = 7
            visited += 1
        }
        let sum = lock.withLockAndStripes { _, stripes in
            var sum = 0
            stripes.updateEach { sum += $0 }
            return sum
        }
        #expect(visited >= 2)
        #expect(sum == 7 * visited)
    }

    @Test("threads reading and writing at once lose no change")
    func concurrentReadsAndWritesLoseNothing() async {
        let lock = StripedLock(0, stripe: { 0 })
        let readers = 8
        let writers = 2
        let perThread = 20_000
        await onThreads(readers + writers) { index in
            for _ in 0..<perThread {
                if index < readers {
                    // Threads outnumber stripes: some share one, and its mutex keeps their counts apart.
                    lock.read { _, stripe in stripe += 1 }
                } else {
                    lock.withLock { $0 += 1 }
                }
            }
        }
        let (state, counted) = lock.withLockAndStripes { state, stripes in
            var counted = 0
            stripes.updateEach { counted += $0 }
            return (state, counted)
        }
        #expect(state == writers * perThread)
        #expect(counted == readers * perThread)
    }

    @Test("a writer's change is seen whole by readers")
    func writesAreSeenWhole() async {
        // Two fields written together under every stripe: a reader never sees one without the other.
        let lock = StripedLock((0, 0), stripe: { 0 })
        let torn = ConcurrentCounter()
        await onThreads(4) { index in
            for value in 1...20_000 {
                if index == 0 {
                    lock.withLock { $0 = (value, -value) }
                } else {
                    let pair = lock.read { state, _ in state.pointee }
                    if pair.0 != -pair.1 { torn.add() }
                }
            }
        }
        #expect(torn.value == 0)
    }

    @Test("a writer waiting for a stripe holds no other: the readers of every other stripe go on")
    func waitingWriterHoldsNoOtherStripe() async throws {
        // Each stripe's value lists the threads that read on it, so that the test knows which readers
        // share the holder's stripe (those wait for the holder, not for the writer).
        let lock = StripedLock((), stripe: { [Int]() })
        // Two rounds with fresh threads, so that one round's holder is not on the first stripe: a
        // writer that took the stripes in order, waiting with those before the holder's, held up their
        // readers.
        for _ in 0..<2 {
            let readerCount = 16  // fresh threads take the next stripes in turn: 16 cover every stripe
            let go = DispatchSemaphore(value: 0)
            let ended = (0..<readerCount).map { _ in DispatchSemaphore(value: 0) }
            let registered = DispatchGroup()
            for reader in 0..<readerCount {
                registered.enter()
                Thread {
                    lock.read { _, stripe in stripe.append(reader) }
                    registered.leave()
                    go.wait()
                    for _ in 0..<20_000 { _ = lock.read { _, stripe in stripe.count } }
                    ended[reader].signal()
                }.start()
            }
            let holderID = -1
            let holderRegistered = DispatchSemaphore(value: 0)
            let hold = DispatchSemaphore(value: 0)
            let held = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            Thread {
                lock.read { _, stripe in stripe.append(holderID) }
                holderRegistered.signal()
                hold.wait()
                lock.read { _, _ in
                    held.signal()
                    release.wait()
                }
            }.start()
            let sharers = try await offThePool {
                registered.wait()
                holderRegistered.wait()
                let sharers = lock.withLockAndStripes { _, stripes in
                    var sharers: Set<Int> = []
                    stripes.updateEach { stripe in
                        if stripe.contains(holderID) { sharers = Set(stripe) }
                        stripe = []
                    }
                    return sharers
                }
                hold.signal()
                held.wait()
                return sharers
            }
            let writerEnded = DispatchSemaphore(value: 0)
            Thread {
                lock.withLock { _ in }
                writerEnded.signal()
            }.start()
            for _ in 0..<readerCount { go.signal() }
            let others = (0..<readerCount).filter { !sharers.contains($0) }
            // Patient: 20,000 reads a thread under the thread sanitizer, beside the rest of the suite on 2 cores,
            // took more than 10 s once. A reader held up by the writer would wait until the holder lets go, after
            // this wait, and so never end within it.
            let othersEnded = try await offThePool {
                let deadline = DispatchTime.now() + 30
                return others.allSatisfy { ended[$0].wait(timeout: deadline) == .success }
            }
            #expect(!others.isEmpty)
            #expect(othersEnded, "a reader waited for the writer, which was waiting for another stripe")
            release.signal()
            // The holder's neighbours, then the writer, go on once it lets go.
            let restEnded = try await offThePool {
                let deadline = DispatchTime.now() + 30
                return writerEnded.wait(timeout: deadline) == .success
                    && sharers.filter { $0 != holderID }.allSatisfy { ended[$0].wait(timeout: deadline) == .success }
            }
            #expect(restEnded)
        }
    }

    @Test("the state and the stripes' values are released with the lock")
    func valuesAreReleased() {
        var stripeObjects: [Tracked] = []
        var lock: StripedLock<Tracked, Tracked>? = StripedLock(Tracked()) {
            let made = Tracked()
            stripeObjects.append(made)
            return made
        }
        let weakState = lock.map { Weak($0.withLock { $0 }) }
        let weakStripes = stripeObjects.map { Weak($0) }
        stripeObjects = []
        #expect(weakState?.value != nil)
        #expect(weakStripes.allSatisfy { $0.value != nil })
        #expect(lock != nil)
        lock = nil
        #expect(weakState?.value == nil)
        #expect(weakStripes.allSatisfy { $0.value == nil })
    }
}

private final class Tracked {}

private struct Weak {
    weak var value: Tracked?
    init(_ value: Tracked) { self.value = value }
}

/// A count that threads add to at once.
final class ConcurrentCounter: @unchecked Sendable {
    // `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    func add(_ amount: Int = 1) { lock.withLock { count += amount } }
    var value: Int { lock.withLock { count } }
}

/// Runs `body` on `count` threads of their own at once (each is told its index), and returns once all have ended.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        group.notify(queue: .global()) { done.resume() }
    }
}
