@_spi(Testing) import ConfigStore
import Dispatch
import Foundation
#if canImport(CDispatch)
import CDispatch
#endif

/// An in-memory provider that counts its calls, so that tests can see how often the store writes.
final class CountingProvider: CachingProvider, @unchecked Sendable {
    // Guarded by `lock`: every access to `entry`, `writes`, `removals` and `written` takes it.
    private var entry: String?
    private var writes = 0
    private var removals = 0
    private var written: [String] = []
    private let lock = NSLock()
    private let limit: Int
    private let sibling: InMemoryCachingProvider

    init(sizeLimit: Int = 256 * 1024, entry: String? = nil) {
        limit = sizeLimit
        self.entry = entry
        sibling = InMemoryCachingProvider()
    }

    var writeCount: Int { withLock { writes } }
    var removeCount: Int { withLock { removals } }
    var writtenEntries: [String] { withLock { written } }

    func read() -> String? { withLock { entry } }

    func write(_ entry: String) {
        withLock {
            self.entry = entry
            writes += 1
            written.append(entry)
        }
    }

    func remove() {
        withLock {
            entry = nil
            removals += 1
        }
    }

    func sizeLimit() -> Int { limit }

    func instanceIDProvider() -> any CachingProvider { sibling }

    private func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// A provider whose every call fails, its instance id entry's included.
struct FailingProvider: CachingProvider {
    struct StorageFailure: Error {}

    func read() throws -> String? { throw StorageFailure() }
    func write(_ entry: String) throws { throw StorageFailure() }
    func remove() throws { throw StorageFailure() }
    func sizeLimit() -> Int { 256 * 1024 }
    func instanceIDProvider() -> any CachingProvider { self }
}

/// Runs the store's coalesced writes when the test says so, instead of after real time.
final class ManualScheduler: @unchecked Sendable {
    // Guarded by `lock`: every access to `works` and `delays` takes it.
    private var works: [@Sendable () -> Void] = []
    private var delays: [TimeInterval] = []
    private let lock = NSLock()

    /// The function to give the store.
    var schedule: KeptValuesStore.WriteScheduler {
        { [self] delay, work in
            lock.lock()
            defer { lock.unlock() }
            delays.append(delay)
            works.append(work)
        }
    }

    /// The delays asked for so far.
    var scheduledDelays: [TimeInterval] {
        lock.lock()
        defer { lock.unlock() }
        return delays
    }

    /// Runs the work scheduled so far, as if its delay had passed.
    func fireAll() {
        lock.lock()
        let due = works
        works = []
        lock.unlock()
        for work in due { work() }
    }
}

/// A folder under the temporary directory, removed by ``remove()``.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("configstore-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A `UserDefaults` suite of its own, removed by ``remove()``.
struct TemporaryDefaults {
    struct Unavailable: Error {}

    let defaults: UserDefaults
    let suiteName: String

    init() throws {
        suiteName = "com.configdirector.tests.\(UUID().uuidString)"
        guard let defaults = UserDefaults(suiteName: suiteName) else { throw Unavailable() }
        self.defaults = defaults
    }

    func remove() {
        defaults.removePersistentDomain(forName: suiteName)
    }
}

/// An in-memory provider that records the label of the dispatch queue each call runs on.
final class QueueRecordingProvider: CachingProvider, @unchecked Sendable {
    // Guarded by `lock`: every access to `labels` takes it.
    private var labels: [String] = []
    private let lock = NSLock()
    private let storage = InMemoryCachingProvider()

    /// The labels recorded so far, one per call.
    var queueLabels: [String] {
        lock.lock()
        defer { lock.unlock() }
        return labels
    }

    func read() -> String? {
        record()
        return storage.read()
    }

    func write(_ entry: String) {
        record()
        storage.write(entry)
    }

    func remove() {
        record()
        storage.remove()
    }

    func sizeLimit() -> Int { storage.sizeLimit() }

    func instanceIDProvider() -> any CachingProvider { self }

    private func record() {
        #if canImport(CDispatch)
        let label = String(cString: dispatch_queue_get_label(nil))
        #else
        let label = String(cString: __dispatch_queue_get_label(nil))
        #endif
        lock.lock()
        defer { lock.unlock() }
        labels.append(label)
    }
}
