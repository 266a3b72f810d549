@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import TestSupport
import Testing

@_spi(Internal) @testable import ConfigStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Kept values store: storage that blocks", .timeLimit(.minutes(1)))
struct KeptValuesStorageFaultTests {
    /// A store on `provider` whose timers and storage threads the test owns.
    static func makeStore(
        provider: any CachingProvider,
        clock: ManualClock,
        threads: StorageThreads,
        logger: RecordingLogger = RecordingLogger()
    ) -> KeptValuesStore {
        KeptValuesStore(
            clientSDKKey: Fixtures.sdkKey,
            options: CachingOptions(provider: provider),
            logger: logger,
            coalescingWindow: 1,
            scheduleWrite: clock.schedule(after:_:),
            now: { Fixtures.writtenAt },
            threads: threads
        )
    }

    /// The threads of the test process, where the system says (Linux); `nil` elsewhere.
    static func threadCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }

    @Test("refuses a FIFO or a folder where the file should be, at once, instead of waiting for a writer")
    func providerRefusesNonRegularFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
        #expect(mkfifo(provider.fileURL.path, 0o600) == 0)
        #expect(throws: (any Error).self) { try provider.read() }
        #expect(throws: (any Error).self) { try provider.read(upTo: 1024) }

        try provider.remove()
        try FileManager.default.createDirectory(at: provider.fileURL, withIntermediateDirectories: false)
        #expect(throws: (any Error).self) { try provider.read() }
        #expect(throws: (any Error).self) { try provider.read(upTo: 1024) }
    }

    @Test("200 stores whose kept file is a FIFO load nothing at once, log once each, and start no thread per store")
    func fifoForTwoHundredStores() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url).fileURL.path
        #expect(mkfifo(path, 0o600) == 0)
        let threadsBefore = Self.threadCount()
        // Stores that opened the FIFO blocking would never return: a writer opening it after 45 s sets them
        // free, so that the test ends, and fails, rather than hangs. A passing run cancels it at once.
        let rescue = Task {
            try await Task.sleep(nanoseconds: 45_000_000_000)
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            return true
        }
        let logger = RecordingLogger()
        let loaded = await withTaskGroup(of: ConfigSet?.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    let store = KeptValuesStore(
                        clientSDKKey: Fixtures.sdkKey,
                        options: CachingOptions(
                            provider: FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
                        ),
                        logger: logger
                    )
                    return await store.load(for: Fixtures.ada)
                }
            }
            var loaded: [ConfigSet?] = []
            for await set in group { loaded.append(set) }
            return loaded
        }
        let threadsAfter = Self.threadCount()
        rescue.cancel()
        #expect((try? await rescue.value) == nil, "the loads returned without a writer")

        #expect(loaded.count == 200)
        #expect(loaded.allSatisfy { $0 == nil })
        let warnings = logger.entries(at: .warn)
        #expect(warnings.count == 200)
        #expect(warnings.allSatisfy { $0.line.contains("not a regular file") })
        if let threadsBefore, let threadsAfter {
            // A thread per store, stuck on its FIFO, would add 200. The count is the whole process's: the suites
            // running beside this one start threads of their own (each socket exchange has one), up to 53 seen.
            #expect(threadsAfter - threadsBefore < 150, "\(threadsBefore) threads before, \(threadsAfter) after")
        }
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was left alone")
    }

    @Test("gives an instance id for the store's life, and leaves the FIFO alone, when a FIFO is where the id should be")
    func fifoInstanceID() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
        let idPath = folder.url.appendingPathComponent(FileCachingProvider.instanceIDFileName).path
        #expect(mkfifo(idPath, 0o600) == 0)
        let logger = RecordingLogger()
        let store = KeptValuesStore(
            clientSDKKey: Fixtures.sdkKey, options: CachingOptions(provider: provider), logger: logger)
        let instanceID = await store.instanceID()
        #expect(UUID(uuidString: instanceID) != nil)
        #expect(await store.instanceID() == instanceID)
        #expect(logger.messages(at: .warn).count == 1)
        var status = stat()
        #expect(stat(idPath, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was left alone")
    }

    @Test("an instance id that fails to read is not written over: this launch uses another, the next reads it again")
    func unreadableInstanceIDSurvives() async throws {
        let kept = UUID().uuidString
        let provider = UnreadyInstanceIDProvider(instanceID: kept)
        let logger = RecordingLogger()
        let launch = KeptValuesStore(
            clientSDKKey: Fixtures.sdkKey, options: CachingOptions(provider: provider), logger: logger)
        let thisLaunch = await launch.instanceID()

        #expect(thisLaunch != kept && UUID(uuidString: thisLaunch) != nil)
        #expect(await launch.instanceID() == thisLaunch)
        #expect(provider.instanceIDs.entry == kept)
        #expect(logger.messages(at: .warn).count == 1)
        let nextLaunch = KeptValuesStore(
            clientSDKKey: Fixtures.sdkKey, options: CachingOptions(provider: provider), logger: RecordingLogger())
        #expect(await nextLaunch.instanceID() == kept)
    }

    @Test("200 stores on a storage that never answers hold 4 threads, give up at the timeout and log once each")
    func hungStorage() async throws {
        let provider = BlockingProvider()
        defer { provider.releaseAll() }
        let clock = ManualClock()
        let threads = StorageThreads(width: 4)
        let logger = RecordingLogger()
        let stores = (0..<200).map { _ in
            Self.makeStore(provider: provider, clock: clock, threads: threads, logger: logger)
        }
        let loads = Task {
            await withTaskGroup(of: ConfigSet?.self) { group in
                for store in stores { group.addTask { await store.load(for: Fixtures.ada) } }
                var loaded: [ConfigSet?] = []
                for await set in group { loaded.append(set) }
                return loaded
            }
        }
        // Every load's timeout is armed, and the storage threads are all blocked.
        #expect(await eventually { clock.scheduledCount == 200 && provider.blockedCalls == 4 })
        clock.advance(by: KeptValuesStore.storageTimeout)
        let loaded = await loads.value

        #expect(loaded.count == 200)
        #expect(loaded.allSatisfy { $0 == nil })
        #expect(provider.startedCalls == 4, "the calls waiting for a thread were withdrawn at their timeout")
        #expect(provider.mostBlockedCalls == 4)
        let warnings = logger.entries(at: .warn)
        #expect(warnings.count == 200)
        #expect(warnings.allSatisfy { $0.line.contains("has not answered within 5 s") })
        provider.releaseAll()
        #expect(await eventually { provider.blockedCalls == 0 })
    }

    @Test("gives up on a write that never returns, makes no other call until it returns, then writes the newest save")
    func hungWrite() async throws {
        let provider = BlockingProvider()
        defer { provider.releaseAll() }
        let clock = ManualClock()
        let store = Self.makeStore(provider: provider, clock: clock, threads: StorageThreads(width: 4))
        store.save(Fixtures.configSet(revision: 1), for: Fixtures.ada)
        clock.advance(by: 1)
        // The write blocks, and its timeout is armed.
        #expect(await eventually { provider.blockedCalls == 1 && clock.scheduledCount == 1 })

        store.save(Fixtures.configSet(revision: 2), for: Fixtures.ada)
        clock.advance(by: KeptValuesStore.storageTimeout)
        // A load runs on the store's queue after the write: it serves the save not written yet.
        #expect(await store.load(for: Fixtures.ada) == Fixtures.configSet(revision: 2))

        store.save(Fixtures.configSet(revision: 3), for: Fixtures.ada)
        clock.advance(by: KeptValuesStore.minimumWriteInterval)
        #expect(await store.load(for: Fixtures.ada) == Fixtures.configSet(revision: 3))
        #expect(provider.startedCalls == 1, "no second call while the first one blocks")

        provider.releaseAll()
        var written: ConfigSet?
        for _ in 0..<1_000 where written != Fixtures.configSet(revision: 3) {
            clock.advance(by: KeptValuesStore.minimumWriteInterval)
            _ = await store.load(for: Fixtures.grace)
            if let entry = provider.entry, case .entry(let read) = KeptValuesEntry.read(entry) {
                written = read.configSet
            }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(written == Fixtures.configSet(revision: 3), "the newest save, once the storage answered")
        await store.close()
    }

    @Test("closes, and gives an instance id, while a call of its storage never returns")
    func closeAndInstanceIDWhileHung() async throws {
        let provider = BlockingProvider()
        defer { provider.releaseAll() }
        let clock = ManualClock()
        let store = Self.makeStore(provider: provider, clock: clock, threads: StorageThreads(width: 4))
        store.save(Fixtures.configSet(revision: 1), for: Fixtures.ada)
        clock.advance(by: 1)
        #expect(await eventually { provider.blockedCalls == 1 && clock.scheduledCount == 1 })
        clock.advance(by: KeptValuesStore.storageTimeout)

        store.save(Fixtures.configSet(revision: 2), for: Fixtures.ada)
        await store.close()
        #expect(provider.startedCalls == 1)

        let received = Protected<String?>(nil)
        Task { received.set(await store.instanceID()) }
        #expect(await eventually { provider.blockedCalls == 2 })
        // The read's timeout is armed a moment after it blocks, on a loaded machine after any check of the
        // clock: time passes until the id comes (a wait on the task itself would hang if it came first).
        #expect(
            await eventually {
                clock.advance(by: KeptValuesStore.storageTimeout)
                return received.current != nil
            })
        let id = try #require(received.current)
        #expect(UUID(uuidString: id) != nil)
        #expect(await store.instanceID() == id)
    }
}
