@_spi(Internal) import ConfigStore
import Foundation
import TestSupport

/// An in-memory provider that records, for each call, whether it runs outside any task: on a thread of its
/// own, neither the caller's task nor a thread of the cooperative pool running one.
final class QueueRecordingProvider: CachingProvider {
    private let calls = Protected<[Bool]>([])
    private let storage = InMemoryCachingProvider()

    /// Whether each call so far ran outside any task, one per call.
    var callsOutsideTasks: [Bool] { calls.current }

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
        let isOutsideTasks = withUnsafeCurrentTask { $0 == nil }
        calls.withLock { $0.append(isOutsideTasks) }
    }
}
