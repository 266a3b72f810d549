@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import TestSupport
import Testing

@_spi(Internal) @testable import ConfigStore

@Suite("File caching provider", .timeLimit(.minutes(1)))
struct FileCachingProviderTests {
    struct SimulatedCrash: Error {}

    @Test("reads back what it wrote, and nothing once the file is removed")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
        #expect(try provider.read() == nil)
        try provider.write("first")
        try provider.write("second ✓")
        #expect(try provider.read() == "second ✓")
        try provider.remove()
        #expect(try provider.read() == nil)
        try provider.remove()
        #expect(provider.sizeLimit() == 1024 * 1024)
    }

    @Test("names the file after the SDK key's hash and keeps the instance id beside it")
    func fileNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
        #expect(provider.fileURL.lastPathComponent == "values-\(Fixtures.sdkKeyDigest).json")
        try provider.write("entry")
        try provider.instanceIDProvider().write("instance")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names == ["instance-id", provider.fileURL.lastPathComponent])
        #expect(try FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url).read() == "entry")
    }

    @Test("creates its folder and file readable by the app's user only")
    func privatePermissions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let nested = folder.url.appendingPathComponent("nested", isDirectory: true)
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: nested)
        try provider.write("entry")
        let fileAttributes = try FileManager.default.attributesOfItem(atPath: provider.fileURL.path)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: nested.path)
        #expect((fileAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test("keeps the old entry readable when a write stops between the temporary file and the rename")
    func atomicWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url).write("old")

        let sawNewContent = Protected(false)
        let crashing = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url) { temporaryFile in
            let content = try String(contentsOf: temporaryFile, encoding: .utf8)
            let reader = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
            sawNewContent.set(content == "new" && (try? reader.read()) == "old")
            throw SimulatedCrash()
        }
        #expect(throws: SimulatedCrash.self) { try crashing.write("new") }
        #expect(sawNewContent.current)
        #expect(try crashing.read() == "old")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names == [crashing.fileURL.lastPathComponent])
    }

    /// Set in a relaunched process: the folder where it writes and is killed before the rename.
    private static let killedWriteFolder = "CONFIGDIRECTOR_KILLED_WRITE_FOLDER"

    @Test(
        "a write killed by SIGKILL before its rename leaves its temporary file; the next launch's first write removes it"
    )
    func killedWrites() async throws {
        if let path = ProcessInfo.processInfo.environment[Self.killedWriteFolder] {
            let dying = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: URL(fileURLWithPath: path)) { _ in
                kill(getpid(), SIGKILL)
            }
            try dying.write("never renamed")
            return
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func temporaryFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }
        }
        for launch in 1...3 {
            let status = try await relaunchThisTestBinary(
                filter: "killedWrites", environment: [Self.killedWriteFolder: folder.url.path])
            #expect(status == SIGKILL, "launch \(launch)")
            let leftovers = try temporaryFiles()
            #expect(leftovers.count == 1, "after launch \(launch): \(leftovers)")
        }
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
        try provider.write("kept")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [provider.fileURL.lastPathComponent]
        )
        #expect(try provider.read() == "kept")
    }

    @Test("places its default folder in Application Support under the SDK's name")
    func defaultDirectory() {
        let directory = FileCachingProvider.defaultDirectory()
        #expect(directory.lastPathComponent == "com.configdirector.sdk")
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey)
        #expect(provider.fileURL.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
    }

    @Test("stores nothing that contains the raw SDK key, through the store")
    func rawKeyNeverStored() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
        let store = KeptValuesStore(
            clientSDKKey: Fixtures.sdkKey,
            options: CachingOptions(provider: provider),
            logger: RecordingLogger()
        )
        store.save(Fixtures.configSet(), for: nil)
        await store.close()

        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names.count == 2)
        let rawKey = Data(Fixtures.sdkKey.utf8)
        for name in names {
            #expect(!name.contains(Fixtures.sdkKey))
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(name))
            #expect(!bytes.isEmpty)
            #expect(bytes.range(of: rawKey) == nil)
        }
    }
}
