import Foundation
import TestSupport
import Testing

@testable @_spi(Internal) @_spi(Locking) import ConfigModel

@Suite(
    "SerialQueue: one operation at a time, in order, across suspensions", .timeLimit(.minutes(1)))
struct SerialQueueTests {
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
