@_spi(Internal) import ConfigStore
import Foundation

/// A provider whose every call fails, its instance id entry's included.
struct FailingProvider: CachingProvider {
    struct StorageFailure: Error {}

    func read() throws -> String? { throw StorageFailure() }
    func write(_ entry: String) throws { throw StorageFailure() }
    func remove() throws { throw StorageFailure() }
    func sizeLimit() -> Int { 256 * 1024 }
    func instanceIDProvider() -> any CachingProvider { self }
}
