@_spi(Internal) import ConfigStore
import Dispatch
import Foundation
import TestSupport

#if canImport(CDispatch)
import CDispatch
#endif

/// An in-memory provider that records the label of the dispatch queue each call runs on.
final class QueueRecordingProvider: CachingProvider {
    private let labels = Protected<[String]>([])
    private let storage = InMemoryCachingProvider()

    /// The labels recorded so far, one per call.
    var queueLabels: [String] { labels.current }

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
        labels.withLock { $0.append(label) }
    }
}
