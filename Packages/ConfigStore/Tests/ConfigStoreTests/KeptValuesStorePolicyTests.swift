@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import TestSupport
import Testing

@_spi(Internal) @testable import ConfigStore

@Suite("Kept values store: size, failures, coalescing and threads", .timeLimit(.minutes(1)))
struct KeptValuesStorePolicyTests {
    static let limit = 256 * 1024

    static func makeStore(
        provider: any CachingProvider,
        enabled: Bool = true,
        logger: RecordingLogger = RecordingLogger(),
        scheduler: ManualClock? = nil,
        coalescingWindow: TimeInterval = 0.05
    ) -> KeptValuesStore {
        KeptValuesStore(
            clientSDKKey: Fixtures.sdkKey,
            options: CachingOptions(enabled: enabled, provider: provider),
            logger: logger,
            coalescingWindow: coalescingWindow,
            scheduleWrite: scheduler?.schedule(after:_:),
            now: { Fixtures.writtenAt }
        )
    }

    /// A one-config set whose entry takes `limit + offset` bytes.
    static func setOfEntrySize(limit: Int, offset: Int) async throws -> ConfigSet {
        let probe = InMemoryCachingProvider(sizeLimit: .max)
        let store = makeStore(provider: probe)
        store.save(Fixtures.configSet(count: 1), for: Fixtures.ada)
        await store.close()
        let baseSize = try #require(probe.read()).utf8.count
        let padding = String(repeating: "a", count: limit + offset - baseSize)
        return Fixtures.configSet(count: 1, padding: padding)
    }

    @Test("keeps an entry at or just under 256 KB in UserDefaults", arguments: [-1, 0])
    func entryUnderLimit(offset: Int) async throws {
        let suite = try TemporaryDefaults()
        defer { suite.remove() }
        let set = try await Self.setOfEntrySize(limit: Self.limit, offset: offset)
        let provider = UserDefaultsCachingProvider(clientSDKKey: Fixtures.sdkKey, defaults: suite.defaults)
        let logger = RecordingLogger()
        let store = Self.makeStore(provider: provider, logger: logger)
        store.save(set, for: Fixtures.ada)
        await store.close()

        #expect(provider.read()?.utf8.count == Self.limit + offset)
        let reader = Self.makeStore(
            provider: UserDefaultsCachingProvider(clientSDKKey: Fixtures.sdkKey, defaults: suite.defaults)
        )
        #expect(await reader.load(for: Fixtures.ada) == set)
        #expect(logger.messages(at: .warn).isEmpty)
    }

    @Test("does not write an entry one byte over the limit, removes the kept one and warns once")
    func entryOverLimit() async throws {
        let oversized = try await Self.setOfEntrySize(limit: Self.limit, offset: 1)
        let provider = CountingProvider(sizeLimit: Self.limit)
        let logger = RecordingLogger()
        let store = Self.makeStore(provider: provider, logger: logger)
        store.save(Fixtures.configSet(), for: Fixtures.ada)
        await store.flush()
        #expect(provider.read() != nil)

        store.save(oversized, for: Fixtures.ada)
        await store.flush()
        #expect(provider.read() == nil)
        #expect(provider.removeCount == 1)

        store.save(oversized, for: Fixtures.grace)
        await store.flush()
        #expect(provider.removeCount == 1)

        store.save(Fixtures.configSet(revision: 2), for: Fixtures.ada)
        await store.flush()
        store.save(oversized, for: Fixtures.ada)
        await store.close()
        #expect(provider.read() == nil)
        #expect(provider.removeCount == 2)
        #expect(provider.writeCount == 2)
        #expect(logger.messages(at: .warn).count == 1)
        #expect(await Self.makeStore(provider: provider).load(for: Fixtures.ada) == nil)
    }

    @Test("logs a provider that fails on every call once, and goes on without it")
    func failingProvider() async throws {
        let logger = RecordingLogger()
        let store = Self.makeStore(provider: FailingProvider(), logger: logger)
        let instanceID = await store.instanceID()
        for revision in 1...3 {
            store.save(Fixtures.configSet(revision: revision), for: Fixtures.ada)
            await store.flush()
        }
        let oversized = try await Self.setOfEntrySize(limit: Self.limit, offset: 1)
        store.save(oversized, for: Fixtures.ada)
        await store.close()

        #expect(await store.load(for: Fixtures.ada) == nil)
        #expect(UUID(uuidString: instanceID) != nil)
        #expect(await store.instanceID() == instanceID)
        let failures = logger.messages(at: .warn).filter { $0.contains("further storage failures") }
        #expect(failures.count == 1)
        #expect(logger.messages(at: .error).isEmpty)
    }

    @Test(
        "under churn writes the newest save once per interval: the window after a quiet time, then 5 s after the write before"
    )
    func coalescing() async throws {
        let provider = CountingProvider()
        let scheduler = ManualClock()
        let store = Self.makeStore(provider: provider, scheduler: scheduler, coalescingWindow: 1)
        /// A point after every write the timers started: a load runs on the store's queue after them.
        func writesEnded() async { _ = await store.load(for: Fixtures.grace) }
        for revision in 1...100 {
            store.save(Fixtures.configSet(revision: revision), for: Fixtures.ada)
        }
        #expect(scheduler.requestedDelays == [1])
        #expect(provider.writeCount == 0)

        scheduler.advance(by: 1)
        await writesEnded()
        #expect(provider.writeCount == 1)
        #expect(await Self.makeStore(provider: provider).load(for: Fixtures.ada) == Fixtures.configSet(revision: 100))

        for revision in 101...150 {
            store.save(Fixtures.configSet(revision: revision), for: Fixtures.ada)
        }
        scheduler.advance(by: KeptValuesStore.minimumWriteInterval - 0.1)
        await writesEnded()
        #expect(provider.writeCount == 1)
        scheduler.advance(by: 0.1)
        await writesEnded()
        #expect(provider.writeCount == 2)
        #expect(await Self.makeStore(provider: provider).load(for: Fixtures.ada) == Fixtures.configSet(revision: 150))

        // Nothing saved since: the next timer finds nothing and stops; a save after it waits the window again.
        scheduler.advance(by: KeptValuesStore.minimumWriteInterval)
        await writesEnded()
        #expect(provider.writeCount == 2)
        let timers = scheduler.scheduledCount
        store.save(Fixtures.configSet(revision: 151), for: Fixtures.ada)
        #expect(scheduler.scheduledCount == timers + 1)
        #expect(scheduler.requestedDelays.last == 1)
        scheduler.advance(by: 1)
        await writesEnded()
        #expect(provider.writeCount == 3)
    }

    @Test("makes a saved set only when it writes it: a set replaced before its write is never made")
    func lazySets() async throws {
        let provider = CountingProvider()
        let scheduler = ManualClock()
        let store = Self.makeStore(provider: provider, scheduler: scheduler, coalescingWindow: 1)
        let made = Protected<[Int]>([])
        @Sendable func make(_ revision: Int) -> ConfigSet {
            made.withLock { $0.append(revision) }
            return Fixtures.configSet(revision: revision)
        }
        for revision in 1...50 {
            store.save(make(revision), for: Fixtures.ada)
        }
        #expect(made.current.isEmpty)
        scheduler.advance(by: 1)
        _ = await store.load(for: Fixtures.grace)
        #expect(made.current == [50])
        #expect(provider.writeCount == 1)
    }

    @Test("writes a burst of 100 saves once or twice with a real timer, the last state last")
    func coalescingWithRealTime() async throws {
        let provider = CountingProvider()
        let store = Self.makeStore(provider: provider, coalescingWindow: 0.2)
        for revision in 1...100 {
            store.save(Fixtures.configSet(revision: revision), for: Fixtures.ada)
        }
        for _ in 0..<40 where provider.writeCount == 0 {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(provider.writeCount > 0, "the timer wrote within 0.8 s")
        // The flush runs on the store's queue after every write the burst asked for, and writes the last
        // save if the timer's write had not: a store that wrote each save would have written 100 times.
        await store.flush()
        #expect((1...2).contains(provider.writeCount))
        let reader = Self.makeStore(provider: provider)
        #expect(await reader.load(for: Fixtures.ada) == Fixtures.configSet(revision: 100))
    }

    @Test("writes the last save on close and ignores saves after it")
    func close() async throws {
        let provider = CountingProvider()
        let scheduler = ManualClock()
        let store = Self.makeStore(provider: provider, scheduler: scheduler, coalescingWindow: 1)
        store.save(Fixtures.configSet(revision: 1), for: Fixtures.ada)
        store.save(Fixtures.configSet(revision: 2), for: Fixtures.ada)
        await store.close()
        #expect(provider.writeCount == 1)

        store.save(Fixtures.configSet(revision: 3), for: Fixtures.ada)
        scheduler.advance(by: 1)
        await store.flush()
        #expect(provider.writeCount == 1)
        #expect(await Self.makeStore(provider: provider).load(for: Fixtures.ada) == Fixtures.configSet(revision: 2))
    }

    @Test("takes saves and loads from many tasks at once and keeps one task's last save")
    func concurrentSaves() async throws {
        let provider = CountingProvider()
        let store = Self.makeStore(provider: provider, coalescingWindow: 0.001)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<50 {
                        store.save(Fixtures.configSet(revision: task * 100 + step), for: Fixtures.ada)
                        if step % 10 == 0 { _ = await store.load(for: Fixtures.ada) }
                    }
                }
            }
        }
        await store.flush()
        #expect(provider.writeCount >= 1)
        let kept = try #require(await Self.makeStore(provider: provider).load(for: Fixtures.ada))
        let value = try #require(kept.configs["config-0"]?.value)
        #expect(["49", "149", "249", "349", "449", "549", "649", "749"].contains { value.hasSuffix("-r\($0)") })
    }

    @Test("writes nothing when disabled, and still keeps the instance id")
    func disabled() async throws {
        let existing = Fixtures.configSet(revision: 7)
        let seed = InMemoryCachingProvider()
        let seedStore = Self.makeStore(provider: seed)
        seedStore.save(existing, for: Fixtures.ada)
        await seedStore.close()
        let provider = CountingProvider(entry: seed.read())

        let store = Self.makeStore(provider: provider, enabled: false)
        #expect(!store.isEnabled)
        #expect(await store.load(for: Fixtures.ada) == nil)
        store.save(Fixtures.configSet(), for: Fixtures.ada)
        await store.flush()
        await store.close()
        #expect(provider.writeCount == 0)
        #expect(provider.removeCount == 0)
        #expect(provider.read() == seed.read())

        let instanceID = await store.instanceID()
        #expect(UUID(uuidString: instanceID) != nil)
        #expect(try provider.instanceIDProvider().read() == instanceID)
        #expect(await Self.makeStore(provider: provider, enabled: false).instanceID() == instanceID)
    }

    @Test("keeps the same instance id across stores on the same storage", arguments: StorageKind.allCases)
    func stableInstanceID(kind: StorageKind) async throws {
        let storage = try kind.makeStorage()
        defer { storage.remove() }
        let first = await Self.makeStore(provider: storage.makeProvider(Fixtures.sdkKey)).instanceID()
        let second = await Self.makeStore(provider: storage.makeProvider(Fixtures.sdkKey)).instanceID()
        let otherKey = await Self.makeStore(provider: storage.makeProvider(Fixtures.otherSDKKey)).instanceID()
        #expect(UUID(uuidString: first)?.uuidString == first)
        #expect(second == first)
        #expect(otherKey == first)
    }

    @Test("creates a new instance id when the kept one is unreadable")
    func unreadableInstanceID() async throws {
        let provider = InMemoryCachingProvider()
        try provider.instanceIDProvider().write("not-a-uuid")
        let created = await Self.makeStore(provider: provider).instanceID()
        #expect(UUID(uuidString: created) != nil)
        #expect(try provider.instanceIDProvider().read() == created)
        #expect(await Self.makeStore(provider: provider).instanceID() == created)
    }

    @Test("calls its provider only on its storage threads, never in the caller's task nor on the cooperative pool")
    func providerQueue() async throws {
        let provider = QueueRecordingProvider()
        let store = Self.makeStore(provider: provider)
        store.save(Fixtures.configSet(), for: nil)
        _ = await store.instanceID()
        await store.flush()
        _ = await Self.makeStore(provider: provider).load(for: nil)
        await store.close()

        let calls = provider.callsOutsideTasks
        #expect(calls.count >= 3)
        #expect(calls.allSatisfy { $0 })
    }
}
