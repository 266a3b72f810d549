@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import TestSupport
import Testing

@_spi(Internal) @testable import ConfigStore

@Suite("Kept values store: the size limit applies before an entry is read", .timeLimit(.minutes(1)))
struct KeptValuesSizeOnReadTests {
    static let limit = 64 * 1024

    /// A provider of `kind` over `storage`-like shared state with the given limit.
    private static func provider(
        _ kind: StorageKind,
        sizeLimit: Int,
        defaults: UserDefaults,
        folder: URL,
        memory: InMemoryCachingProvider
    ) -> any CachingProvider {
        switch kind {
        case .inMemory: memory
        case .userDefaults:
            UserDefaultsCachingProvider(clientSDKKey: Fixtures.sdkKey, defaults: defaults, sizeLimit: sizeLimit)
        case .file: FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder, sizeLimit: sizeLimit)
        }
    }

    @Test(
        "refuse a valid entry kept above the limit, remove it and warn once, for every provider",
        arguments: StorageKind.allCases
    )
    func validEntryAboveTheLimit(kind: StorageKind) async throws {
        let suite = try TemporaryDefaults()
        let folder = try TemporaryFolder()
        defer {
            suite.remove()
            folder.remove()
        }
        let set = try await KeptValuesStorePolicyTests.setOfEntrySize(limit: Self.limit, offset: 1)
        // Written through a provider with no practical limit: an entry an older SDK or another app left.
        let unbounded = InMemoryCachingProvider(sizeLimit: .max)
        let writer = Self.provider(
            kind, sizeLimit: .max, defaults: suite.defaults, folder: folder.url, memory: unbounded
        )
        let writingStore = KeptValuesStorePolicyTests.makeStore(provider: writer)
        writingStore.save(set, for: Fixtures.ada)
        await writingStore.close()
        #expect(try writer.read()?.utf8.count == Self.limit + 1)

        // The same storage, read with the limit (the in-memory provider's limit is fixed at creation).
        let memory = InMemoryCachingProvider(sizeLimit: Self.limit)
        if kind == .inMemory { memory.write(try #require(try writer.read())) }
        let reader = Self.provider(
            kind, sizeLimit: Self.limit, defaults: suite.defaults, folder: folder.url, memory: memory)
        let logger = RecordingLogger()
        let store = KeptValuesStorePolicyTests.makeStore(provider: reader, logger: logger)
        #expect(await store.load(for: Fixtures.ada) == nil)
        #expect(try reader.read() == nil)
        #expect(await store.load(for: Fixtures.ada) == nil)
        let warnings = logger.messages(at: .warn)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("removed without being served") == true)
    }

    @Test("refuse a 100 MB file by its size, without reading it, and remove it")
    func hugeFileIsNotRead() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
        // A sparse file: 100 MB long, no block written, so the test itself reads and writes nothing.
        #expect(FileManager.default.createFile(atPath: provider.fileURL.path, contents: nil))
        let handle = try FileHandle(forWritingTo: provider.fileURL)
        try handle.truncate(atOffset: 100 * 1024 * 1024)
        try handle.close()

        #expect(try provider.read(upTo: FileCachingProvider.defaultSizeLimit) == .tooLarge(100 * 1024 * 1024))
        let logger = RecordingLogger()
        let store = KeptValuesStorePolicyTests.makeStore(provider: provider, logger: logger)
        #expect(await store.load(for: Fixtures.ada) == nil)
        #expect(!FileManager.default.fileExists(atPath: provider.fileURL.path))
        #expect(logger.messages(at: .warn).count == 1)
    }

    @Test("read an entry at the limit, of a file and of a stored string alike")
    func entryAtTheLimit() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url, sizeLimit: 4)
        try provider.write("abcd")
        #expect(try provider.read(upTo: 4) == .entry("abcd"))
        #expect(try provider.read(upTo: 3) == .tooLarge(4))
        try provider.remove()
        #expect(try provider.read(upTo: 4) == .absent)
        let memory = InMemoryCachingProvider(sizeLimit: 4)
        memory.write("abcd")
        #expect(memory.read(upTo: 4) == .entry("abcd"))
        #expect(memory.read(upTo: 3) == .tooLarge(4))
    }
}
