@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// A file in a temporary folder of its own, removed by `remove()`.
private struct TemporaryFile {
    let folder: TemporaryFolder
    var url: URL { folder.url.appendingPathComponent("configdirector-defaults.json") }

    init(_ text: String) throws {
        folder = try TemporaryFolder()
        try Data(text.utf8).write(to: folder.url.appendingPathComponent("configdirector-defaults.json"))
    }

    func remove() {
        folder.remove()
    }
}

private let bundled: BundledValues = ["greeting": "bundled", "bundled-only": 5]

@Suite("Bundled values", .timeLimit(.minutes(1)))
struct BundledValuesTests {
    @Test("bundled values are served before anything else is known, and never make the client ready")
    func servedFirst() async throws {
        let fixture = try ClientFixture(answer: .hold, bundledValues: bundled)
        defer { fixture.client.close() }
        var evaluations = fixture.client.evaluations.makeAsyncIterator()
        #expect(fixture.client.valueSource == .bundledValues)
        #expect(fixture.client.value(for: "greeting", default: "code") == "bundled")
        #expect(fixture.client.value(for: "not-bundled", default: "code") == "code")
        #expect(await evaluations.next()?.reason == .foundMatch)
        #expect(await evaluations.next()?.reason == .clientNotReady)
        #expect(!fixture.client.isReady)

        let initialization = Task { await fixture.client.initialize() }
        await fixture.advance(by: 3.5)
        await initialization.value
        #expect(!fixture.client.isReady)
        #expect(fixture.client.valueSource == .bundledValues)
        #expect(fixture.client.value(for: "greeting", default: "code") == "bundled")
    }

    @Test("live values replace bundled values, with a configsUpdated event that removes the keys they lack")
    func liveWins() async throws {
        let fixture = try ClientFixture(bundledValues: bundled)
        defer { fixture.client.close() }
        var events = fixture.client.events.makeAsyncIterator()
        var greetings = fixture.client.values(for: "greeting", default: "code").makeAsyncIterator()
        #expect(await greetings.next() == "bundled")

        await fixture.client.initialize()
        #expect(fixture.client.valueSource == .live)
        #expect(fixture.client.value(for: "bundled-only", default: 0) == 0)
        #expect(await greetings.next() == "hello")
        #expect(await events.next() == .contextUpdated(nil))
        #expect(await events.next() == .ready(.initialization))
        guard case .configsUpdated(let update) = await events.next() else {
            Issue.record("expected configsUpdated when live values replace the bundled ones")
            return
        }
        #expect(update.removedKeys == ["bundled-only"])
    }

    @Test("the first live set replaces the bundled values whatever its kind: a delta first drops what it lacks")
    func firstLiveDeltaReplacesBundled() async throws {
        let fixture = try ClientFixture(
            answer: .deliver(.strings(["greeting": "live"], kind: .delta)), bundledValues: bundled)
        defer { fixture.client.close() }
        #expect(fixture.client.value(for: "bundled-only", default: 0) == 5)

        await fixture.client.initialize()

        #expect(fixture.client.value(for: "greeting", default: "") == "live")
        #expect(fixture.client.value(for: "bundled-only", default: 0) == 0)
        #expect(fixture.client.valueSource == .live)
    }

    @Test("values kept on the device win over bundled values, and live values over both")
    func keptWins() async throws {
        let provider = InMemoryCachingProvider()
        let user = ConfigDirectorContext(id: "user-1")
        #expect(try await keepSampleValues(in: provider, for: user))

        let second = try ClientFixture(
            answer: .hold, caching: CachingOptions(provider: provider), bundledValues: bundled)
        defer { second.client.close() }
        var events = second.client.events.makeAsyncIterator()
        #expect(second.client.valueSource == .bundledValues)
        let initialization = Task { await second.client.initialize(context: user) }
        guard case .configsUpdated(let update) = await events.next() else {
            Issue.record("expected configsUpdated when the kept values replace the bundled ones")
            return
        }
        #expect(update.removedKeys == ["bundled-only"])
        #expect(second.client.valueSource == .keptValues)
        #expect(second.client.value(for: "greeting", default: "code") == "hello")
        #expect(!second.client.isReady)

        await second.advance(by: 3.5)
        await initialization.value
        try second.transport.deliver(.strings(["greeting": "live"], kind: .full))
        #expect(second.client.valueSource == .live)
        #expect(second.client.value(for: "greeting", default: "code") == "live")
    }

    @Test("a bundled file in the format of a full config set is served")
    func file() async throws {
        let file = try TemporaryFile(
            #"""
            {
              "kind": "full",
              "configs": {
                "dark-mode": { "key": "dark-mode", "type": "boolean", "value": "true" },
                "theme": { "key": "theme", "type": "json", "value": "{\"primary\":\"#101010\"}" }
              }
            }
            """#
        )
        defer { file.remove() }
        let fixture = try ClientFixture(answer: .hold, bundledValues: BundledValues(contentsOf: file.url))
        defer { fixture.client.close() }
        #expect(fixture.client.value(for: "dark-mode", default: false))
        #expect(fixture.client.valueSource == .bundledValues)
    }

    @Test("a bundled file's JSON literal values are served as the text they would be on the wire")
    func literalValues() async throws {
        let file = try TemporaryFile(
            #"""
            {
              "configs": {
                "dark-mode": { "key": "dark-mode", "type": "boolean", "value": true },
                "max-items": { "key": "max-items", "type": "integer", "value": 42 },
                "ratio": { "key": "ratio", "type": "float", "value": 2.5 },
                "theme": { "key": "theme", "type": "json", "value": { "primary": "#101010" } },
                "steps": { "key": "steps", "type": "json", "value": [1, 2] },
                "greeting": { "key": "greeting", "type": "string", "value": "bundled" },
                "nothing": { "key": "nothing", "type": "string", "value": null }
              }
            }
            """#
        )
        defer { file.remove() }
        let fixture = try ClientFixture(answer: .hold, bundledValues: BundledValues(contentsOf: file.url))
        defer { fixture.client.close() }
        let client = fixture.client
        #expect(client.value(for: "dark-mode", default: false))
        #expect(client.evaluation(for: "dark-mode", default: false).evaluation.reason == .foundMatch)
        #expect(client.value(for: "max-items", default: 0) == 42)
        #expect(client.value(for: "ratio", default: 0.0) == 2.5)
        #expect(client.value(for: "theme", as: [String: String].self, default: [:]) == ["primary": "#101010"])
        #expect(client.value(for: "steps", as: [Int].self, default: []) == [1, 2])
        #expect(client.value(for: "greeting", default: "code") == "bundled")
        #expect(client.evaluation(for: "nothing", default: "code").evaluation.reason == .valueMissing)
        #expect(client.valueSource == .bundledValues)
    }

    @Test("a malformed bundled file is an error of the initializer that names the file, line and column")
    func malformedFile() throws {
        let file = try TemporaryFile("{\n  \"configs\": {\n    \"dark-mode\": { \"value\": tru }\n  }\n}\n")
        defer { file.remove() }
        let error = #expect(throws: ConfigDirectorError.self) {
            try ClientFixture(bundledValues: BundledValues(contentsOf: file.url))
        }
        guard case .invalidBundledValues(let path, let reason) = error else {
            Issue.record("expected invalidBundledValues, got \(String(describing: error))")
            return
        }
        #expect(path == file.url.path)
        #expect(reason.contains("line 3, column 29"))
        #expect(error?.localizedDescription.contains(file.url.path) == true)
    }

    @Test("a missing file or resource, and a value that cannot be served, are errors of the initializer")
    func otherErrors() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).json")
        let unreadable = #expect(throws: ConfigDirectorError.self) {
            try ClientFixture(bundledValues: BundledValues(contentsOf: missing))
        }
        #expect(unreadable.map { if case .invalidBundledValues(missing.path, _) = $0 { true } else { false } } == true)

        let noResource = #expect(throws: ConfigDirectorError.self) {
            try ClientFixture(bundledValues: .resource(named: "no-such-resource", in: Bundle.main))
        }
        #expect(noResource?.localizedDescription.contains("no-such-resource.json") == true)

        #expect(
            throws: ConfigDirectorError.invalidBundledValues(
                file: nil, reason: "the value of 'ratio' cannot be served: nan is not a finite number")
        ) {
            try ClientFixture(bundledValues: ["ratio": .float(.nan)])
        }
    }
}
