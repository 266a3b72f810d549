import Testing

@testable import ConfigClient

@Suite("Broadcast: every element to every subscriber, the newest kept, finished for good", .timeLimit(.minutes(1)))
struct BroadcastTests {
    @Test("hands every element sent after a stream subscribed to that stream, in order")
    func fanOut() async {
        let broadcast = Broadcast<Int>(bufferSize: 16)
        #expect(!broadcast.hasSubscribers)
        broadcast.send(0)  // before any subscriber: nobody receives it
        let first = broadcast.subscribe()
        broadcast.send(1)
        let second = broadcast.subscribe()
        #expect(broadcast.hasSubscribers)
        broadcast.send(2)
        broadcast.send(3)
        broadcast.finish()
        #expect(await Array(first) == [1, 2, 3])
        #expect(await Array(second) == [2, 3])
    }

    @Test("keeps the newest elements a slow consumer has not read, up to the buffer size")
    func bufferingNewest() async {
        let broadcast = Broadcast<Int>(bufferSize: 3)
        let stream = broadcast.subscribe()
        for element in 1...10 { broadcast.send(element) }
        broadcast.finish()
        #expect(await Array(stream) == [8, 9, 10])
    }

    @Test("finish ends every stream, and a stream subscribed afterwards ends at once")
    func finish() async {
        let broadcast = Broadcast<String>(bufferSize: 4)
        let before = broadcast.subscribe()
        broadcast.finish()
        #expect(!broadcast.hasSubscribers)
        broadcast.send("late")
        let after = broadcast.subscribe()
        #expect(!broadcast.hasSubscribers)
        #expect(await Array(before).isEmpty)
        #expect(await Array(after).isEmpty)
    }

    @Test("a stream that ends is removed and its unsubscribe handler runs once")
    func unsubscribe() async {
        let broadcast = Broadcast<Int>(bufferSize: 4)
        let (unsubscribed, signal) = AsyncStream.makeStream(of: Void.self)
        let kept = broadcast.subscribe()
        let consumer = Task {
            var count = 0
            for await _ in broadcast.subscribe(onUnsubscribe: { signal.yield() }) { count += 1 }
            return count
        }
        consumer.cancel()
        var iterator = unsubscribed.makeAsyncIterator()
        await iterator.next()
        _ = await consumer.value
        // Only `kept` is left: an element reaches it alone.
        broadcast.send(1)
        broadcast.finish()
        signal.finish()
        #expect(await Array(kept) == [1])
        #expect(await Array(unsubscribed).isEmpty)
    }
}

extension Array {
    /// The elements of an `AsyncStream` until it finishes.
    fileprivate init(_ stream: AsyncStream<Element>) async {
        self = []
        for await element in stream { append(element) }
    }
}
