@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Testing) import ConfigTesting
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport
import Observation
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

extension ConfigKeys {
    fileprivate static let overriddenDarkMode = ConfigKey("dark-mode", default: false)
}

/// Local overrides through the public API: what wins, who sees it, what telemetry counts, where they come from.
@Suite("Local overrides", .timeLimit(.minutes(1)))
struct LocalOverrideTests {
    @Test("an override wins over a live value, is announced on values(for:), and its removal serves the live value")
    func overrideWinsAndIsAnnounced() async throws {
        let fixture = try ClientFixture(overrides: .enabled)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        #expect(client.areOverridesEnabled)
        var greetings = client.values(for: "greeting", default: "none").makeAsyncIterator()
        #expect(await greetings.next() == "hello")
        var events = client.events.makeAsyncIterator()

        client.setOverride("forced", for: "greeting")
        #expect(await greetings.next() == "forced")
        #expect(await events.next() == .configsUpdated(ConfigsUpdate(keys: ["greeting"])))
        let detail = client.evaluation(for: "greeting", default: "none").evaluation
        #expect(detail.value == ConfigEvaluationValue("forced"))
        #expect(detail.source == .override)
        #expect(detail.reason == .foundMatch)
        #expect(detail.valueID == ValueID(of: "forced").rawValue)
        #expect(client.overrides == [ConfigOverride(key: "greeting", type: .string, value: "forced")])

        // A live change of the key goes under the override; it is served once the override is removed.
        try fixture.server.serve(.strings(["greeting": "bonjour"]))
        #expect(await eventually { client.snapshot().configs.count == 6 })
        #expect(client.value(for: "greeting", default: "none") == "forced")
        client.removeOverride(for: "greeting")
        #expect(await greetings.next() == "bonjour")
        #expect(client.evaluation(for: "greeting", default: "none").evaluation.source == .live)
        #expect(client.overrides.isEmpty)
    }

    @Test("an override of a key the service does not serve outlives full sets, and its removal removes the key")
    func overrideOfAnUnservedKey() async throws {
        let fixture = try ClientFixture(overrides: .enabled)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        client.setOverride(true, for: "new-checkout")
        #expect(client.value(for: "new-checkout", default: false) == true)

        var events = client.events.makeAsyncIterator()
        try fixture.server.serve(ConfigSet(kind: .full, configs: ["greeting": ConfigState(type: .string, value: "hi")]))
        let update = await events.next()
        // The full set removed every served key but the one it carries; the override stays.
        #expect(
            update
                == .configsUpdated(
                    ConfigsUpdate(
                        keys: ["greeting"], removedKeys: ["dark-mode", "empty", "max-items", "ratio", "theme"])))
        #expect(client.value(for: "new-checkout", default: false) == true)

        client.removeAllOverrides()
        #expect(await events.next() == .configsUpdated(ConfigsUpdate(keys: [], removedKeys: ["new-checkout"])))
        #expect(client.evaluation(for: "new-checkout", default: false).evaluation.reason == .configStateMissing)
    }

    @Test("overrides serve before initialize, over bundled values, and each setter serves its type")
    func typedSetters() async throws {
        let fixture = try ClientFixture(
            bundledValues: BundledValues(["max-items": 1]), overrides: .enabled)
        defer { fixture.client.close() }
        let client = fixture.client
        client.setOverride(3, for: "max-items")
        client.setOverride(2.5, for: "ratio")
        client.setOverride(2.0 as Double, for: "whole")
        client.setOverride(false, for: "dark-mode")
        client.setOverride(["theme": "dark", "radius": 8], for: "layout")
        #expect(client.setOverride(jsonText: #"[1, 2]"#, for: "list"))
        #expect(!client.setOverride(jsonText: "{not json", for: "broken"))
        client.setOverride(ServedValue.float(.infinity), for: "infinite")

        #expect(client.value(for: "max-items", default: 0) == 3)
        #expect(client.evaluation(for: "max-items", default: 0).evaluation.source == .override)
        #expect(client.value(for: "ratio", default: 0.0) == 2.5)
        #expect(client.value(for: "dark-mode", default: true) == false)
        #expect(client.value(for: "list", as: [Int].self, default: []) == [1, 2])
        #expect(client.overrides.map(\.key) == ["dark-mode", "layout", "list", "max-items", "ratio", "whole"])
        #expect(
            client.overrides.first { $0.key == "whole" } == ConfigOverride(key: "whole", type: .float, value: "2.0"))
        #expect(
            client.overrides.first { $0.key == "max-items" }
                == ConfigOverride(key: "max-items", type: .integer, value: "3"))
        #expect(client.overrides.first { $0.key == "layout" }?.value == #"{"radius":8,"theme":"dark"}"#)
        #expect(fixture.logger.mentions("the override of 'broken' is not JSON"))
        #expect(fixture.logger.mentions("the override of 'infinite' is ignored"))
    }

    @Test("a client that did not turn overrides on ignores every way of setting one, and says so once")
    func releaseClientIgnoresOverrides() async throws {
        let fixture = try ClientFixture(
            arguments: ["App", LocalOverrideOptions.launchArgument, #"{"greeting": "forced"}"#])
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        client.setOverride("forced", for: "greeting")
        client.setOverride(true, for: "dark-mode")
        #expect(!client.setOverride(jsonText: "{}", for: "theme"))
        client.removeOverride(for: "greeting")
        client.removeAllOverrides()

        #expect(client.value(for: "greeting", default: "none") == "hello")
        #expect(client.overrides.isEmpty)
        #expect(!client.areOverridesEnabled)
        let warnings = fixture.logger.messages(at: .warn)
        #expect(warnings.filter { $0.contains("every override set is ignored") }.count == 1)
        #expect(
            warnings.filter { $0.contains("overrides of the launch arguments or environment are ignored") }.count == 1)
    }

    @Test("the launch arguments and the environment set overrides, the argument winning; malformed entries are logged")
    func launchArgumentsAndEnvironment() async throws {
        let fixture = try ClientFixture(
            overrides: .enabled,
            arguments: [
                "App", "-AppleLanguages", "(fr)", LocalOverrideOptions.launchArgument,
                #"{"dark-mode": false, "max-items": 7, "layout": {"columns": 2}, "nothing": null}"#,
            ],
            environmentVariables: [LocalOverrideOptions.environmentVariable: #"{"dark-mode": true, "greeting": "env"}"#]
        )
        defer { fixture.client.close() }
        let client = fixture.client
        // Served before the first connect, as bundled values are.
        #expect(client.value(for: "dark-mode", default: true) == false)
        await client.initialize()
        #expect(client.value(for: "dark-mode", default: true) == false)
        #expect(client.value(for: "greeting", default: "none") == "env")
        #expect(client.value(for: "max-items", default: 0) == 7)
        #expect(client.snapshot()["layout"]?.value == #"{"columns":2}"#)
        #expect(client.snapshot()["nothing"] == nil)
        #expect(fixture.logger.mentions("gives no value that reads for 'nothing'"))

        let malformed = try ClientFixture(
            overrides: .enabled, arguments: [LocalOverrideOptions.launchArgument, "dark-mode=true"])
        defer { malformed.client.close() }
        #expect(malformed.client.overrides.isEmpty)
        #expect(malformed.logger.messages(at: .error).filter { $0.contains("is not a JSON object") }.count == 1)
    }

    @Test("the README's UI test launch arguments set their overrides")
    func readmeLaunchArguments() throws {
        // README "Local overrides": app.launchArguments += [...], as XCUIApplication passes them to the app.
        let fixture = try ClientFixture(
            overrides: .enabled,
            arguments: ["/path/to/App", "-ConfigDirectorOverrides", #"{"dark-mode": true, "max-items": 3}"#])
        defer { fixture.client.close() }
        #expect(fixture.client.value(for: "dark-mode", default: false))
        #expect(fixture.client.value(for: "max-items", default: 0) == 3)
        #expect(fixture.client.overrides.map(\.type) == [.boolean, .integer])
    }

    @Test("telemetry does not count reads of an overridden key, and counts the others")
    func telemetrySkipsOverrides() async throws {
        let fixture = try ClientFixture(overrides: .enabled)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        client.setOverride(false, for: "dark-mode")
        for _ in 0..<5 {
            _ = client.value(for: "dark-mode", default: true)
            _ = client.evaluation(for: "dark-mode", default: true)
            _ = client.value(for: "greeting", default: "")
        }
        var darkModes = client.values(for: "dark-mode", default: true).makeAsyncIterator()
        #expect(await darkModes.next() == false)
        let batch = try await flushedBatch(fixture)
        #expect(batch.evaluatedConfigs.map(\.event.key) == ["greeting"])
        #expect(batch.evaluatedConfigs.first?.count == 5)
    }

    @Test("hooks and the evaluations stream see an override's source")
    func hooksAndEvaluationsSeeTheOverride() async throws {
        let recorder = SourceRecordingHook()
        let fixture = try ClientFixture(hooks: [recorder], overrides: .enabled)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        var evaluations = client.evaluations.makeAsyncIterator()
        client.setOverride(false, for: "dark-mode")
        #expect(client.value(for: "dark-mode", default: true) == false)
        let published = await evaluations.next()
        #expect(published?.source == .override)
        #expect(published?.value == ConfigEvaluationValue(false))
        #expect(recorder.sources.withLock { $0 } == [.override])
    }

    @MainActor
    @Test("an observed config follows an override")
    func observedConfigFollowsAnOverride() async throws {
        let fixture = try ClientFixture(overrides: .enabled)
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let configs = ObservedConfigs(client: fixture.client)
        #expect(configs[.overriddenDarkMode] == true)
        let change = Change { _ = configs[.overriddenDarkMode] }
        fixture.client.setOverride(false, for: "dark-mode")
        await change.wait()
        #expect(configs[.overriddenDarkMode] == false)
    }

    @Test("kept overrides come back at the next launch; those of the launch arguments do not")
    func keptAcrossLaunches() async throws {
        let folder = try TemporaryFolder()
        let options = LocalOverrideOptions(isEnabled: true, persists: true, directory: folder.url)
        let first = try ClientFixture(
            overrides: options,
            arguments: [LocalOverrideOptions.launchArgument, #"{"ratio": 9.5}"#])
        await first.client.initialize()
        first.client.setOverride("kept", for: "greeting")
        first.client.setOverride(false, for: "dark-mode")
        first.client.removeOverride(for: "dark-mode")
        #expect(first.client.value(for: "ratio", default: 0.0) == 9.5)
        await first.client.closeAndWait()

        let second = try ClientFixture(overrides: options)
        defer { second.client.close() }
        #expect(second.client.overrides == [ConfigOverride(key: "greeting", type: .string, value: "kept")])
        await second.client.initialize()
        #expect(second.client.value(for: "ratio", default: 0.0) == 2.5)
    }

    @Test("a kept overrides file that does not decode is logged, serves nothing, and is replaced at the next change")
    func corruptKeptOverrides() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent(
            "overrides-\(SHA256Digest.hexHash(of: ClientFixture.sdkKey)).json")
        try Data("{not json".utf8).write(to: file)
        let options = LocalOverrideOptions(isEnabled: true, persists: true, directory: folder.url)
        let fixture = try ClientFixture(overrides: options)
        #expect(fixture.client.overrides.isEmpty)
        #expect(fixture.logger.messages(at: .warn).filter { $0.contains("do not decode") }.count == 1)
        fixture.client.setOverride(true, for: "dark-mode")
        await fixture.client.closeAndWait()
        let kept = try String(contentsOf: file, encoding: .utf8)
        #expect(kept.contains("dark-mode"))
    }

    @Test("the values kept on the device are the service's, not the overrides")
    func keptValuesLeaveOverridesOut() async throws {
        let provider = InMemoryCachingProvider()
        let first = try ClientFixture(caching: CachingOptions(provider: provider), overrides: .enabled)
        first.client.setOverride("forced", for: "greeting")
        first.client.setOverride(true, for: "only-here")
        await first.client.initialize()
        #expect(first.client.value(for: "greeting", default: "none") == "forced")
        await first.client.closeAndWait()

        let plain = try ClientFixture(answer: .hold, caching: CachingOptions(provider: provider))
        defer { plain.client.close() }
        Task { [client = plain.client] in await client.initialize() }
        #expect(await eventually { plain.client.valueSource == .keptValues })
        #expect(plain.client.value(for: "greeting", default: "none") == "hello")
        #expect(plain.client.snapshot()["only-here"] == nil)
    }

    @Test("a snapshot lists every config with its source, overrides included, and records no evaluation")
    func snapshot() async throws {
        let fixture = try ClientFixture(overrides: .enabled)
        defer { fixture.client.close() }
        let context = ConfigDirectorContext(id: "user-1")
        await fixture.client.initialize(context: context)
        let client = fixture.client
        client.setOverride(false, for: "dark-mode")
        client.setOverride(1, for: "only-here")
        var evaluations = client.evaluations.makeAsyncIterator()

        let snapshot = client.snapshot()
        #expect(snapshot.context == context)
        #expect(snapshot.isReady)
        #expect(snapshot.valueSource == .live)
        #expect(
            snapshot.configs.map(\.key) == [
                "dark-mode", "empty", "greeting", "max-items", "only-here", "ratio", "theme",
            ])
        #expect(
            snapshot["dark-mode"]
                == ConfigSnapshot.Config(
                    key: "dark-mode", type: .boolean, value: "false", valueID: ValueID(of: "false").rawValue,
                    reason: .foundMatch, source: .override))
        #expect(
            snapshot["greeting"]
                == ConfigSnapshot.Config(
                    key: "greeting", type: .string, value: "hello", valueID: ValueID(of: "hello").rawValue,
                    reason: .foundMatch, source: .live))
        #expect(snapshot["empty"]?.reason == .valueMissing)
        #expect(snapshot["empty"]?.source == .codeDefault)
        #expect(snapshot["empty"]?.valueID == nil)

        // Nothing was published nor counted: the next evaluation is the first of each.
        _ = client.value(for: "greeting", default: "")
        #expect(await evaluations.next()?.key == "greeting")
        let batch = try await flushedBatch(fixture)
        #expect(batch.evaluatedConfigs.map(\.event.key) == ["greeting"])
    }
}

/// Records the source of each evaluation its after stage is told of.
private final class SourceRecordingHook: ConfigDirectorHook {
    let sources = Protected<[ConfigEvaluation.Source]>([])

    func afterEvaluation(_ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData) {
        sources.withLock { $0.append(result.source) }
    }
}
