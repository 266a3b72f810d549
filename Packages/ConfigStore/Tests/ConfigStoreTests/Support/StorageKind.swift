@_spi(Internal) import ConfigStore
import Foundation
import TestSupport
import Testing

/// Each kind of storage the SDK ships, set up in a place of its own for one test.
enum StorageKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory, userDefaults, file

    var testDescription: String { rawValue }

    /// Storage of this kind: `makeProvider` gives a new provider over the same storage each time.
    func makeStorage() throws -> Storage {
        switch self {
        case .inMemory:
            let provider = InMemoryCachingProvider()
            return Storage(makeProvider: { _ in provider }, remove: {})
        case .userDefaults:
            let suite = try TemporaryDefaults()
            let defaults = suite.defaults
            return Storage(
                makeProvider: { UserDefaultsCachingProvider(clientSDKKey: $0, defaults: defaults) },
                remove: suite.remove
            )
        case .file:
            let folder = try TemporaryFolder()
            return Storage(
                makeProvider: { FileCachingProvider(clientSDKKey: $0, directory: folder.url) },
                remove: folder.remove
            )
        }
    }
}

/// Storage for one test, removed by ``remove``.
struct Storage {
    let makeProvider: (_ clientSDKKey: String) -> any CachingProvider
    let remove: () -> Void
}
