@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import TestSupport
import Testing

@_spi(Internal) @testable import ConfigStore

@Suite("Kept values store: entries and matching", .timeLimit(.minutes(1)))
struct KeptValuesStoreTests {
    static func makeStore(
        provider: any CachingProvider,
        sdkKey: String = Fixtures.sdkKey,
        enabled: Bool = true,
        logger: RecordingLogger = RecordingLogger()
    ) -> KeptValuesStore {
        KeptValuesStore(
            clientSDKKey: sdkKey,
            options: CachingOptions(enabled: enabled, provider: provider),
            logger: logger,
            coalescingWindow: 0.05,
            now: { Fixtures.writtenAt }
        )
    }

    @Test("serves the last saved set to a new store on the same storage", arguments: StorageKind.allCases)
    func roundTrip(kind: StorageKind) async throws {
        let storage = try kind.makeStorage()
        defer { storage.remove() }
        let writer = Self.makeStore(provider: storage.makeProvider(Fixtures.sdkKey))
        writer.save(Fixtures.configSet(revision: 1), for: Fixtures.ada)
        writer.save(Fixtures.configSet(revision: 2), for: Fixtures.ada)
        await writer.close()

        let reader = Self.makeStore(provider: storage.makeProvider(Fixtures.sdkKey))
        #expect(await reader.load(for: Fixtures.ada) == Fixtures.configSet(revision: 2))
        #expect(await reader.load(for: Fixtures.grace) == nil)
    }

    @Test("serves a context without an id on the same install only", arguments: StorageKind.allCases)
    func contextWithoutID(kind: StorageKind) async throws {
        let storage = try kind.makeStorage()
        defer { storage.remove() }
        let writer = Self.makeStore(provider: storage.makeProvider(Fixtures.sdkKey))
        writer.save(Fixtures.configSet(), for: nil)
        await writer.close()

        let sameInstall = Self.makeStore(provider: storage.makeProvider(Fixtures.sdkKey))
        #expect(await sameInstall.load(for: nil) == Fixtures.configSet())
        #expect(await sameInstall.load(for: ConfigDirectorContext(name: "Ada", traits: ["plan": "pro"])) != nil)
        #expect(await sameInstall.load(for: ConfigDirectorContext(kind: "tenant")) == nil)
        #expect(await sameInstall.load(for: Fixtures.ada) == nil)

        try storage.makeProvider(Fixtures.sdkKey).instanceIDProvider().write(UUID().uuidString)
        let otherInstall = Self.makeStore(provider: storage.makeProvider(Fixtures.sdkKey))
        #expect(await otherInstall.load(for: nil) == nil)
    }

    @Test("serves only a context of the same kind and id, whatever its other attributes")
    func matching() async throws {
        let provider = InMemoryCachingProvider()
        let writer = Self.makeStore(provider: provider)
        writer.save(Fixtures.configSet(), for: Fixtures.ada)
        await writer.close()

        let reader = Self.makeStore(provider: provider)
        #expect(await reader.load(for: ConfigDirectorContext(id: "user-123", kind: "user")) == Fixtures.configSet())
        #expect(await reader.load(for: ConfigDirectorContext(id: "user-123", traits: ["plan": "free"])) != nil)
        #expect(await reader.load(for: Fixtures.acme) == nil)
        #expect(await reader.load(for: Fixtures.grace) == nil)
        #expect(await reader.load(for: nil) == nil)
        #expect(provider.read() != nil)
    }

    @Test("treats a context of invalid kind as no context, as evaluation does")
    func invalidKind() async throws {
        let provider = InMemoryCachingProvider()
        let store = Self.makeStore(provider: provider)
        store.save(Fixtures.configSet(), for: ConfigDirectorContext(id: "user-123", kind: "Not Valid"))
        await store.close()
        #expect(await Self.makeStore(provider: provider).load(for: nil) == Fixtures.configSet())
    }

    @Test("writes one versioned JSON document with the key's hash, the context and the set as received")
    func entryFormat() async throws {
        let provider = InMemoryCachingProvider()
        let store = Self.makeStore(provider: provider)
        let set = Fixtures.configSet(count: 2)
        store.save(set, for: Fixtures.acme)
        await store.flush()

        let text = try #require(provider.read())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["formatVersion"] as? Int == 1)
        #expect(document["sdkVersion"] as? String == ConfigDirectorSDK.version)
        #expect(document["sdkKeyHash"] as? String == Fixtures.sdkKeyDigest)
        #expect(document["writtenAt"] as? String == "2027-01-15T08:00:00Z")
        let context = try #require(document["context"] as? [String: Any])
        #expect(context["kind"] as? String == "tenant")
        #expect(context["id"] as? String == "user-123")
        let configSet = try #require(document["configSet"])
        let setData = try JSONSerialization.data(withJSONObject: configSet)
        #expect(try JSONDecoder().decode(ConfigSet.self, from: setData) == set)
        #expect(!text.contains(Fixtures.sdkKey))
    }

    @Test("marks a context without an id and records the instance id it was written with")
    func entryFormatWithoutID() async throws {
        let provider = InMemoryCachingProvider()
        let store = Self.makeStore(provider: provider)
        store.save(Fixtures.configSet(), for: ConfigDirectorContext(name: "Ada"))
        await store.flush()

        let text = try #require(provider.read())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let context = try #require(document["context"] as? [String: Any])
        #expect(context["kind"] as? String == "user")
        #expect(context["id"] == nil)
        #expect(context["withoutId"] as? Bool == true)
        #expect(context["instanceId"] as? String == (await store.instanceID()))
    }

    @Test("serves a save not written yet for the same context")
    func unwrittenSave() async throws {
        let provider = CountingProvider()
        let scheduler = ManualClock()
        let store = KeptValuesStore(
            clientSDKKey: Fixtures.sdkKey,
            options: CachingOptions(provider: provider),
            logger: RecordingLogger(),
            coalescingWindow: 1,
            scheduleWrite: scheduler.schedule(after:_:)
        )
        store.save(Fixtures.configSet(revision: 3), for: Fixtures.ada)
        #expect(await store.load(for: Fixtures.ada) == Fixtures.configSet(revision: 3))
        #expect(await store.load(for: Fixtures.grace) == nil)
        #expect(provider.writeCount == 0)
    }

    enum Damage: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case corruptBytes, truncatedJSON, notAnObject, anotherFormatVersion, missingConfigSet, configSetNotAnObject
        case anotherSDKKey
        var testDescription: String { rawValue }
    }

    @Test("ignores and removes an entry that cannot be served", arguments: Damage.allCases)
    func damagedEntry(damage: Damage) async throws {
        let provider = InMemoryCachingProvider()
        let writerKey = damage == .anotherSDKKey ? Fixtures.otherSDKKey : Fixtures.sdkKey
        let writer = Self.makeStore(provider: provider, sdkKey: writerKey)
        writer.save(Fixtures.configSet(), for: Fixtures.ada)
        await writer.close()
        let valid = try #require(provider.read())

        switch damage {
        case .corruptBytes: provider.write("\u{FFFD}\u{0}\u{1}garbage\u{FFFD}")
        case .truncatedJSON: provider.write(String(valid.prefix(valid.count / 2)))
        case .notAnObject: provider.write("[1, 2, 3]")
        case .anotherFormatVersion: provider.write(try Self.rewriting(valid) { $0["formatVersion"] = 2 })
        case .missingConfigSet: provider.write(try Self.rewriting(valid) { $0["configSet"] = nil })
        case .configSetNotAnObject: provider.write(try Self.rewriting(valid) { $0["configSet"] = [1] })
        case .anotherSDKKey: break
        }

        let logger = RecordingLogger()
        let reader = Self.makeStore(provider: provider, logger: logger)
        #expect(await reader.load(for: Fixtures.ada) == nil)
        #expect(provider.read() == nil)
        #expect(logger.messages(at: .info).count == 1)
        #expect(logger.messages(at: .warn).isEmpty)
    }

    @Test("reads the kept set as leniently as a received one: an entry that is not an object is skipped")
    func lenientKeptSet() async throws {
        let provider = InMemoryCachingProvider()
        let writer = Self.makeStore(provider: provider)
        writer.save(Fixtures.configSet(count: 2), for: Fixtures.ada)
        await writer.close()
        let valid = try #require(provider.read())
        provider.write(
            try Self.rewriting(valid) { document in
                var set = document["configSet"] as? [String: Any] ?? [:]
                var configs = set["configs"] as? [String: Any] ?? [:]
                configs["not-an-object"] = [1, 2]
                set["configs"] = configs
                set["unknown"] = ["nested": [true]]
                document["configSet"] = set
            }
        )
        #expect(await Self.makeStore(provider: provider).load(for: Fixtures.ada) == Fixtures.configSet(count: 2))
    }

    @Test("reads a file of damaged bytes as an entry to remove")
    func damagedFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let provider = FileCachingProvider(clientSDKKey: Fixtures.sdkKey, directory: folder.url)
        try Data([0xFF, 0xFE, 0x7B, 0x22, 0xC3]).write(to: provider.fileURL)
        #expect(await Self.makeStore(provider: provider).load(for: Fixtures.ada) == nil)
        #expect(!FileManager.default.fileExists(atPath: provider.fileURL.path))
    }

    static func rewriting(_ entry: String, _ change: (inout [String: Any]) -> Void) throws -> String {
        var document = try #require(try JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any])
        change(&document)
        return String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
    }
}
