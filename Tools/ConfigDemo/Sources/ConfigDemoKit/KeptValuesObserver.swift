internal import ConfigDirector
@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

/// A caching provider that hands everything to another one and notes when the SDK writes the values it
/// keeps, so that step 5 starts its second client only once the first client's latest values are on disk.
final class KeptValuesObserver: CachingProvider {
    private let base: any CachingProvider
    private let lastWrite = Locked<Date?>(nil)

    init(_ base: any CachingProvider) {
        self.base = base
    }

    /// When the SDK last wrote an entry, if it has.
    var lastWriteDate: Date? { lastWrite.withLock { $0 } }

    func read() throws -> String? { try base.read() }

    func write(_ entry: String) throws {
        try base.write(entry)
        lastWrite.withLock { $0 = Date() }
    }

    func remove() throws { try base.remove() }

    func sizeLimit() -> Int { base.sizeLimit() }

    func instanceIDProvider() -> any CachingProvider { base.instanceIDProvider() }
}
