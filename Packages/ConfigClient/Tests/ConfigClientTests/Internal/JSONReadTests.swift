@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
@_spi(Internal) import ConfigTransport
import Foundation
import TestSupport
import Testing

/// A counter of decodes, one per test type, so that tests running at once do not share one.
private final class DecodeCount: Sendable {
    private let count = Protected(0)

    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.current }
}

private let onceDecodes = DecodeCount()
private let twoTypesDecodes = DecodeCount()

/// The sample's theme, counting its decodes.
private struct CountedTheme: Decodable, Sendable {
    var primary: String
    var cornerRadius: Int

    init(primary: String, cornerRadius: Int) {
        self.primary = primary
        self.cornerRadius = cornerRadius
    }

    init(from decoder: any Decoder) throws {
        onceDecodes.add()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        primary = try container.decode(String.self, forKey: .primary)
        cornerRadius = try container.decode(Int.self, forKey: .cornerRadius)
    }

    private enum CodingKeys: String, CodingKey {
        case primary, cornerRadius
    }
}

/// The sample's theme read as another type, counting its decodes.
private struct ThemeColor: Decodable, Sendable {
    var primary: String

    init(primary: String) {
        self.primary = primary
    }

    init(from decoder: any Decoder) throws {
        twoTypesDecodes.add()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        primary = try container.decode(String.self, forKey: .primary)
    }

    private enum CodingKeys: String, CodingKey {
        case primary
    }
}

private struct Theme: Decodable, Sendable, Equatable {
    var primary: String
    var cornerRadius: Int
}

/// JSON reads decode once per served value (per lock stripe): the decode is kept for the slot, type and
/// revision, and telemetry is keyed without describing the default again.
@Suite("JSON reads", .timeLimit(.minutes(1)))
struct JSONReadTests {
    private static let fallback = CountedTheme(primary: "#000000", cornerRadius: 0)
    private static let changedTheme = ##"{"primary":"#202020","cornerRadius":4}"##

    @Test("a repeated read decodes once, a changed value decodes again, the same value served again does not")
    func decodesOncePerValue() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        // One thread for every read: one stripe.
        let server = try fixture.server
        let client = fixture.client
        let decodes = await Self.onOneThread { () -> [Int] in
            var decodes: [Int] = []
            let reads = (0..<50).map { _ in client.value(for: "theme", as: CountedTheme.self, default: Self.fallback) }
            decodes.append(
                reads.allSatisfy { $0.primary == "#101010" && $0.cornerRadius == 8 } ? onceDecodes.value : -1)
            let changed = ConfigState(key: "theme", type: .json, value: Self.changedTheme)
            server.serve(ConfigSet(kind: .delta, configs: ["theme": changed]))
            let again = (0..<10).map { _ in client.value(for: "theme", as: CountedTheme.self, default: Self.fallback) }
            decodes.append(
                again.allSatisfy { $0.primary == "#202020" && $0.cornerRadius == 4 } ? onceDecodes.value : -1)
            server.serve(ConfigSet(kind: .delta, configs: ["theme": changed]))
            _ = client.value(for: "theme", as: CountedTheme.self, default: Self.fallback)
            decodes.append(onceDecodes.value)
            return decodes
        }
        // The values read are right (-1 otherwise), and each served value decoded once.
        #expect(decodes == [1, 2, 2])
    }

    @Test("reads of one key as two types keep a decode of each")
    func twoTypes() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let decodes = await Self.onOneThread {
            for _ in 0..<20 {
                _ = fixture.client.value(for: "theme", as: ThemeColor.self, default: ThemeColor(primary: ""))
                _ = fixture.client.value(for: "theme", as: Theme.self, default: Theme(primary: "", cornerRadius: 0))
            }
            return twoTypesDecodes.value
        }
        #expect(decodes == 1)
        #expect(
            fixture.client.value(for: "theme", as: Theme.self, default: Theme(primary: "", cornerRadius: 0))
                .cornerRadius == 8)
    }

    @Test("telemetry counts every read under its own default's text, and a config that is not JSON reads as a mismatch")
    func telemetryByDefault() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let first = Theme(primary: "#111111", cornerRadius: 1)
        let second = Theme(primary: "#222222", cornerRadius: 2)
        for _ in 0..<10 {
            _ = fixture.client.value(for: "theme", as: Theme.self, default: first)
            _ = fixture.client.value(for: "theme", as: Theme.self, default: second)
        }
        for _ in 0..<5 {
            #expect(fixture.client.value(for: "greeting", as: Theme.self, default: first) == first)
        }
        let events = try await flushedBatch(fixture).evaluatedConfigs
        let theme = events.filter { $0.event.key == "theme" }
        #expect(theme.count == 2)
        // A JSON config's default is sent by the value id of its text (PROTOCOL §6).
        let firstText = TelemetryValue(text: String(describing: first), configType: .json, valueID: nil)
        let secondText = TelemetryValue(text: String(describing: second), configType: .json, valueID: nil)
        #expect(firstText != secondText)
        #expect(theme.first { $0.event.defaultValue == firstText }?.count == 10)
        #expect(theme.first { $0.event.defaultValue == secondText }?.count == 10)
        #expect(theme.allSatisfy { $0.event.reason == .foundMatch })
        let greeting = events.filter { $0.event.key == "greeting" }
        #expect(greeting.count == 1)
        #expect(greeting.first?.count == 5)
        #expect(greeting.first?.event.reason == .typeMismatch)
    }

    /// Runs `body` on a thread of its own, so that every read in it uses that thread's lock stripe.
    private static func onOneThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { (done: CheckedContinuation<Result, Never>) in
            Thread { done.resume(returning: body()) }.start()
        }
    }
}
