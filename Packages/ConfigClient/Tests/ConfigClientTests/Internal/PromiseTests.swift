import Testing

@testable @_spi(Internal) import ConfigClient

/// `Promise`: the first value set is the one every waiter gets, before or after it was set.
@Suite("Promise", .timeLimit(.minutes(1)))
struct PromiseTests {
    @Test("every waiter gets the first value set, whenever it waits")
    func firstValueWins() async {
        let promise = Promise<Int>()
        let early = Task { await promise.value() }
        let waiting = Task { await promise.value() }
        #expect(promise.resolve(1))
        #expect(!promise.resolve(2))
        #expect(await early.value == 1)
        #expect(await waiting.value == 1)
        #expect(await promise.value() == 1)
    }

    @Test("values set from many tasks at once resolve it once")
    func concurrentResolves() async {
        let promise = Promise<Int>()
        let wins = await withTaskGroup(of: Bool.self) { group in
            for value in 0..<50 { group.addTask { promise.resolve(value) } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
        let value = await promise.value()
        #expect((0..<50).contains(value))
    }
}
