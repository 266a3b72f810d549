@_spi(Internal) import ConfigStore
import TestSupport

/// A provider that keeps its entry in memory and whose instance id fails its first read, as a storage
/// that is not available yet would (a keychain or a protected file before the device's first unlock),
/// then reads what it holds.
final class UnreadyInstanceIDProvider: CachingProvider {
    /// The instance id's storage: the first read throws.
    final class InstanceIDs: CachingProvider {
        private let state: Protected<(entry: String?, isReady: Bool)>

        init(entry: String?) {
            state = Protected((entry, false))
        }

        /// The instance id held, read without failing.
        var entry: String? { state.withLock(\.entry) }

        func read() throws -> String? {
            try state.withLock { state in
                defer { state.isReady = true }
                guard state.isReady else { throw FailingProvider.StorageFailure() }
                return state.entry
            }
        }

        func write(_ entry: String) { state.withLock { $0.entry = entry } }
        func remove() { state.withLock { $0.entry = nil } }
        func sizeLimit() -> Int { 1024 }
        func instanceIDProvider() -> any CachingProvider { self }
    }

    private let values = InMemoryCachingProvider()
    let instanceIDs: InstanceIDs

    /// - Parameter instanceID: The instance id kept.
    init(instanceID: String?) {
        instanceIDs = InstanceIDs(entry: instanceID)
    }

    func read() -> String? { values.read() }
    func write(_ entry: String) { values.write(entry) }
    func remove() { values.remove() }
    func sizeLimit() -> Int { values.sizeLimit() }
    func instanceIDProvider() -> any CachingProvider { instanceIDs }
}
