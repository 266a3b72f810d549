import Dispatch
import Foundation
import TestSupport
import Testing

@testable @_spi(Internal) @_spi(Locking) import ConfigModel

#if canImport(CDispatch)
import CDispatch
#endif

@Suite(
    "SerialQueue: one operation at a time, in order; blocking parts on its own dispatch queue", .timeLimit(.minutes(1)))
struct SerialQueueTests {
    /// The label of the dispatch queue the caller runs on.
    private static func currentQueueLabel() -> String {
        #if canImport(CDispatch)
        String(cString: dispatch_queue_get_label(nil))
        #else
        String(cString: __dispatch_queue_get_label(nil))
        #endif
    }

    @Test("runs operations one at a time in the order enqueued, each ending before the next starts, across suspensions")
    func order() async {
        let queue = SerialQueue()
        let log = Locked<[String]>([])
        var tasks: [Task<Void, Never>] = []
        for index in 0..<20 {
            tasks.append(
                queue.enqueue {
                    log.withLock { $0.append("start \(index)") }
                    for _ in 0..<3 { await Task.yield() }
                    log.withLock { $0.append("end \(index)") }
                }
            )
        }
        for task in tasks { await task.value }
        #expect(log.withLock { $0 } == (0..<20).flatMap { ["start \($0)", "end \($0)"] })
    }

    @Test("perform returns its operation's result after every operation enqueued before it")
    func performWaitsForEarlier() async {
        let queue = SerialQueue()
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let log = Locked<[String]>([])
        queue.enqueue {
            for await _ in gate { break }
            log.withLock { $0.append("first") }
        }
        async let result = queue.perform { () -> Int in
            log.withLock { $0.append("second") }
            return 42
        }
        // The second operation cannot have run: the first waits for the gate.
        opener.yield()
        #expect(await result == 42)
        #expect(log.withLock { $0 } == ["first", "second"])
    }

    @Test("runs a blocking body on the queue's labelled dispatch queue, in order with the async operations")
    func blockingOnItsDispatchQueue() async {
        let queue = SerialQueue(label: "com.configdirector.tests.serial")
        let log = Locked<[String]>([])
        queue.enqueue {
            await Task.yield()
            log.withLock { $0.append("async") }
        }
        let label = await queue.performBlocking { () -> String in
            log.withLock { $0.append("blocking") }
            return Self.currentQueueLabel()
        }
        #expect(label == "com.configdirector.tests.serial")
        #expect(log.withLock { $0 } == ["async", "blocking"])
        let inside = await queue.perform { await queue.runBlocking { Self.currentQueueLabel() } }
        #expect(inside == "com.configdirector.tests.serial")
    }

    @Test("bodies blocked on more queues than the pool has threads leave the pool free: callers suspend")
    func blockedBodiesHoldNoPoolThread() async {
        // One more blocked body than the cooperative pool has threads: were the bodies run on the pool,
        // no operation could run until they were released, and the check below would hang to its limit.
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let queues = (0..<count).map { SerialQueue(label: "com.configdirector.tests.stalled-\($0)") }
        let release = DispatchSemaphore(value: 0)
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let blocked = queues.map { queue in
            Task {
                await queue.performBlocking {
                    signal.yield()
                    release.wait()
                }
            }
        }
        var iterator = started.makeAsyncIterator()
        for _ in 0..<count { await iterator.next() }
        // Every body is blocked now; async operations of another queue still run.
        let other = SerialQueue()
        #expect(await other.perform { 8 } == 8)
        for _ in 0..<count { release.signal() }
        for task in blocked { await task.value }
    }

    @Test("an operation waits for its turn, counted as waiting, and idle returns once the last ended")
    func queueTurns() async {
        let queue = SerialQueue()
        let ran = Protected<[Int]>([])
        let (wait, open) = gate()
        queue.enqueue {
            await wait()
            ran.withLock { $0.append(1) }
        }
        queue.enqueue { ran.withLock { $0.append(2) } }
        #expect(await eventually { queue.waitingCount == 1 })
        #expect(ran.current.isEmpty)
        #expect(!queue.isIdle)

        open()
        await queue.idle()
        #expect(ran.current == [1, 2])
        #expect(queue.waitingCount == 0)
        #expect(queue.isIdle)
    }

    @Test("idle on an empty queue returns at once")
    func emptyQueue() async {
        let queue = SerialQueue()
        #expect(queue.isIdle)
        await queue.idle()
        #expect(queue.waitingCount == 0)
    }
}
