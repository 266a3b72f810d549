@_spi(Internal) import ConfigModel
import TestSupport
import Testing

@testable @_spi(Internal) import ConfigTransport

@Suite("ConnectionSlot: one connection at a time, replaced, stopped and closed", .timeLimit(.minutes(1)))
struct ConnectionSlotTests {
    /// A slot whose handler records every event it is handed.
    private static func makeSlot() -> (ConnectionSlot, Protected<[TransportEvent]>) {
        let events = Protected<[TransportEvent]>([])
        let slot = ConnectionSlot { event in events.withLock { $0.append(event) } }
        return (slot, events)
    }

    /// Waits until the task running it is cancelled.
    private static func waitForCancellation() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        await withTaskCancellationHandler {
            for await _ in stream {}
        } onCancel: {
            continuation.finish()
        }
    }

    @Test("a started connection runs with its generation, and its events reach the handler while it is current")
    func startAndEmit() async {
        let (slot, events) = Self.makeSlot()
        let (ran, ranContinuation) = AsyncStream.makeStream(of: Int.self)
        let started = slot.start { generation in
            #expect(slot.isCurrent(generation))
            #expect(slot.emit(.connectionState(.open), generation: generation))
            ranContinuation.yield(generation)
        }
        #expect(started)
        var iterator = ran.makeAsyncIterator()
        let generation = await iterator.next()
        #expect(generation == 1)
        #expect(events.current == [.connectionState(.open)])
        #expect(!slot.emit(.connectionState(.stopped), generation: 0))
        #expect(events.current == [.connectionState(.open)])
        slot.stop(closing: true)
    }

    @Test("a connection replaced before its task ran runs, if at all, before its replacement, which always runs")
    func stoppedBeforeRunning() async {
        let (slot, _) = Self.makeSlot()
        let (steps, step) = AsyncStream.makeStream(of: Int.self)
        // The first never runs if the second replaces it first; the second always does, and runs last.
        slot.start { step.yield($0) }
        slot.start { generation in
            step.yield(generation)
            step.finish()
        }
        var seen: [Int] = []
        for await generation in steps { seen.append(generation) }
        #expect(seen == [1, 2] || seen == [2])
        slot.stop(closing: true)
    }

    @Test(
        "a new connection cancels the current one and starts only after it has ended; the old one's events are dropped")
    func replacement() async {
        let (slot, events) = Self.makeSlot()
        let log = Protected<[String]>([])
        let (firstStarted, firstStartedContinuation) = AsyncStream.makeStream(of: Int.self)
        let (secondRan, secondRanContinuation) = AsyncStream.makeStream(of: Void.self)
        slot.start { generation in
            firstStartedContinuation.yield(generation)
            await Self.waitForCancellation()
            // Replaced: what it still emits is dropped.
            #expect(!slot.emit(.connectionState(.stopped), generation: generation))
            log.withLock { $0.append("first ended") }
        }
        var started = firstStarted.makeAsyncIterator()
        #expect(await started.next() == 1)
        slot.start { generation in
            log.withLock { $0.append("second started") }
            #expect(generation == 2)
            slot.emit(.connectionState(.open), generation: generation)
            secondRanContinuation.yield()
        }
        var ran = secondRan.makeAsyncIterator()
        await ran.next()
        #expect(log.current == ["first ended", "second started"])
        #expect(events.current == [.connectionState(.open)])
        slot.stop(closing: true)
    }

    @Test("stop without closing cancels the connection and makes it stale; the slot starts again")
    func stopWithoutClosing() async {
        let (slot, events) = Self.makeSlot()
        let (steps, step) = AsyncStream.makeStream(of: String.self)
        slot.start { generation in
            step.yield("started \(generation)")
            await Self.waitForCancellation()
            step.yield("ended \(generation)")
        }
        var iterator = steps.makeAsyncIterator()
        #expect(await iterator.next() == "started 1")
        #expect(!slot.stop(closing: false))
        #expect(await iterator.next() == "ended 1")
        #expect(!slot.isCurrent(1))
        #expect(!slot.isClosed)
        let (ran, ranContinuation) = AsyncStream.makeStream(of: Int.self)
        let restarted = slot.start { ranContinuation.yield($0) }
        #expect(restarted)
        var ranIterator = ran.makeAsyncIterator()
        #expect(await ranIterator.next() == 3)
        #expect(events.current.isEmpty)
        slot.stop(closing: true)
    }

    @Test("closing stops the connection for good: once true, then false, and no connection starts after it")
    func closing() async {
        let (slot, events) = Self.makeSlot()
        let (steps, step) = AsyncStream.makeStream(of: String.self)
        slot.start { _ in
            step.yield("started")
            await Self.waitForCancellation()
            step.yield("ended")
        }
        var iterator = steps.makeAsyncIterator()
        #expect(await iterator.next() == "started")
        #expect(slot.stop(closing: true))
        #expect(slot.isClosed)
        #expect(!slot.stop(closing: true))
        #expect(!slot.stop(closing: false))
        #expect(await iterator.next() == "ended")
        let started = slot.start { _ in Issue.record("a closed slot started a connection") }
        #expect(!started)
        #expect(!slot.isCurrent(1))
        #expect(!slot.emit(.connectionState(.open), generation: 1))
        #expect(events.current.isEmpty)
    }
}
