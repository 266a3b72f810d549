@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Testing) import ConfigTesting
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// Evaluations of held configs are counted per lock stripe and handed to the collector later; these
/// tests check that every evaluation still lands in the right aggregate, with the right times.
@Suite("Telemetry counting", .timeLimit(.minutes(1)))
struct TelemetryCountingTests {
    @Test("evaluations on many threads are aggregated into one event with every evaluation counted")
    func manyThreadsOneAggregate() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let client = fixture.client
        let threads = 8
        let perThread = 2_500
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for _ in 0..<threads {
                group.enter()
                Thread {
                    for _ in 0..<perThread { _ = client.value(for: "dark-mode", default: false) }
                    group.leave()
                }.start()
            }
            group.notify(queue: .global()) { done.resume() }
        }
        let batch = try await flushedBatch(fixture)
        #expect(batch.evaluatedConfigs.count == 1)
        #expect(batch.evaluatedConfigs.first?.count == threads * perThread)
        #expect(batch.droppedEvaluatedConfigCount == 0)
    }

    @Test("alternating kinds of evaluation of one key are each counted in their own event")
    func alternatingKinds() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        for _ in 0..<10 {
            _ = fixture.client.value(for: "dark-mode", default: false)
            _ = fixture.client.value(for: "dark-mode", default: true)
            _ = fixture.client.value(for: "dark-mode", default: "off")
        }
        let events = try await flushedBatch(fixture).evaluatedConfigs
        #expect(events.count == 3)
        let boolFalse = events.first { $0.event.requestedType == "Bool" && $0.event.defaultValue == .text("false") }
        let boolTrue = events.first { $0.event.requestedType == "Bool" && $0.event.defaultValue == .text("true") }
        let string = events.first { $0.event.requestedType == "String" }
        #expect(boolFalse?.count == 10)
        #expect(boolTrue?.count == 10)
        #expect(string?.count == 10)
        #expect(string?.event.reason == .typeMismatch)
        #expect(string?.event.usedDefault == true)
    }

    @Test("a changed value starts a new event; the same value served again counts in the same event")
    func valueChanges() async throws {
        let fixture = try ClientFixture(initial: .strings(["greeting": "hello"], kind: .full))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        for _ in 0..<3 { _ = fixture.client.value(for: "greeting", default: "") }
        try fixture.server.serve(.strings(["greeting": "bonjour"]))
        for _ in 0..<2 { _ = fixture.client.value(for: "greeting", default: "") }
        try fixture.server.serve(.strings(["greeting": "hello"]))
        for _ in 0..<4 { _ = fixture.client.value(for: "greeting", default: "") }

        let events = try await flushedBatch(fixture).evaluatedConfigs
        #expect(events.count == 2)
        #expect(events.first { $0.event.evaluatedValue == .text("hello") }?.count == 7)
        #expect(events.first { $0.event.evaluatedValue == .text("bonjour") }?.count == 2)
    }

    @Test("a key that takes the place of a removed one is counted apart from it")
    func reusedPlace() async throws {
        let fixture = try ClientFixture(initial: .strings(["old": "1"], kind: .full))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        for _ in 0..<3 { _ = fixture.client.value(for: "old", default: "") }
        try fixture.server.serve(.strings(["new": "2"], kind: .full))
        for _ in 0..<2 { _ = fixture.client.value(for: "new", default: "") }
        _ = fixture.client.value(for: "old", default: "")

        let events = try await flushedBatch(fixture).evaluatedConfigs
        let old = events.filter { $0.event.key == "old" }
        #expect(old.first { $0.event.reason == .foundMatch }?.count == 3)
        #expect(old.first { $0.event.reason == .configStateMissing }?.count == 1)
        #expect(events.first { $0.event.key == "new" }?.count == 2)
        #expect(events.first { $0.event.key == "new" }?.event.evaluatedValue == .text("2"))
    }

    @Test("an event's times are those of its first and last evaluations")
    func times() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let first = fixture.clock.now()
        _ = fixture.client.value(for: "dark-mode", default: false)
        fixture.clock.advance(by: 2)
        _ = fixture.client.value(for: "dark-mode", default: false)
        fixture.clock.advance(by: 1.5)
        _ = fixture.client.value(for: "dark-mode", default: false)

        let event = try #require(try await flushedBatch(fixture).evaluatedConfigs.first)
        #expect(event.count == 3)
        #expect(event.startTime == first)
        #expect(event.endTime == first.addingTimeInterval(3.5))
    }

    @Test("counting goes on after a flush, and each flush sends only what came after the previous one")
    func countsAfterFlush() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        for _ in 0..<2 { _ = fixture.client.value(for: "dark-mode", default: false) }
        #expect(try await flushedBatch(fixture).evaluatedConfigs.first?.count == 2)
        for _ in 0..<5 { _ = fixture.client.value(for: "dark-mode", default: false) }
        #expect(try await flushedBatch(fixture, number: 2).evaluatedConfigs.first?.count == 5)
    }

    @Test("a context change sends the evaluations counted so far with the previous context")
    func contextChange() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "first"))
        for _ in 0..<5 { _ = fixture.client.value(for: "dark-mode", default: false) }
        await fixture.client.updateContext(ConfigDirectorContext(id: "second"))
        for _ in 0..<3 { _ = fixture.client.value(for: "dark-mode", default: false) }
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        let firstBatch = try #require(fixture.telemetry.batches.first)
        #expect(firstBatch.context?.id == "first")
        #expect(firstBatch.evaluatedConfigs.map(\.count) == [5])
        #expect(firstBatch.evaluatedConfigs.first?.event.contextID == "first")

        let secondBatch = try await flushedBatch(fixture, number: 2)
        #expect(secondBatch.context?.id == "second")
        #expect(secondBatch.evaluatedConfigs.map(\.count) == [3])
        #expect(secondBatch.evaluatedConfigs.first?.event.contextID == "second")
    }

    /// The rule the stripes' caches rely on (`EvaluationReason`'s note): a reason depends only on the config's
    /// revision, the context, the requested type and the default. The client reuses a reason for a read like the
    /// previous one of its key (the telemetry cache's likeness, a kept JSON decode), so a cache keyed by less than
    /// that would serve, and count, a stale reason. Reads of varied keys, types and defaults, with the served set
    /// changing under them, must each give the reason a client that never read before gives, and telemetry must
    /// count each under that reason (two defaults per type, so that reads alike and unlike alternate).
    @Test("every read gives, and is counted under, the reason a fresh client gives it")
    func reasonsAgreeWithFreshClients() async throws {
        struct Theme: Decodable, Sendable {
            let primary: String
        }
        enum Requested: CaseIterable { case bool, int, double, string, theme }
        // Versions of one full set: each key changes type or value between them, into values that read well
        // as some types and fail as others (an invalid boolean, a fraction read as an integer, a JSON document
        // that does not decode, an empty value, a key dropped).
        let variants: [[String: (ConfigType, String)]] = [
            [
                "flag": (.boolean, "true"), "count": (.integer, "12"), "text": (.string, "hi"),
                "theme": (.json, #"{"primary":"red"}"#),
            ],
            [
                "flag": (.boolean, "maybe"), "count": (.float, "2.5"), "text": (.string, ""),
                "theme": (.json, #"{"other":1}"#),
            ],
            ["flag": (.string, "true"), "count": (.integer, "x"), "theme": (.string, #"{"primary":"red"}"#)],
            [
                "flag": (.boolean, "false"), "count": (.integer, "-3"), "text": (.json, #"{"primary":"blue"}"#),
                "theme": (.json, "[1]"),
            ],
        ]
        let sets = variants.map { configs in
            ConfigSet(
                kind: .full,
                configs: Dictionary(
                    uniqueKeysWithValues: configs.map { (ExactKey($0), ConfigState(type: $1.0, value: $1.1)) }))
        }
        func read(_ client: ConfigDirectorClient, _ key: String, _ requested: Requested, _ second: Bool)
            -> (EvaluationReason, type: String)
        {
            switch requested {
            case .bool: (client.evaluation(for: key, default: second).evaluation.reason, "Bool")
            case .int: (client.evaluation(for: key, default: second ? 7 : 0).evaluation.reason, "Int")
            case .double: (client.evaluation(for: key, default: second ? 0.5 : 1.5).evaluation.reason, "Double")
            // Defaults whose text is another type's: only the requested type tells these reads apart.
            case .string: (client.evaluation(for: key, default: second ? "true" : "7").evaluation.reason, "String")
            case .theme:
                (
                    client.evaluation(for: key, as: Theme.self, default: Theme(primary: second ? "b" : "a"))
                        .evaluation.reason, "Theme"
                )
            }
        }
        // The reason of a read on a client that never read before, by version, key and type.
        var fresh: [String: EvaluationReason] = [:]
        func freshReason(_ version: Int, _ key: String, _ requested: Requested) async throws -> EvaluationReason {
            let name = "\(version) \(key) \(requested)"
            if let known = fresh[name] { return known }
            let other = try ClientFixture(initial: sets[version])
            defer { other.client.close() }
            await other.client.initialize()
            let reason = read(other.client, key, requested, false).0
            fresh[name] = reason
            return reason
        }

        let fixture = try ClientFixture(initial: sets[0])
        defer { fixture.client.close() }
        await fixture.client.initialize()
        var random = SplitMix64(seed: 45)
        var version = 0
        var counted: [String: Int] = [:]
        let keys = ["flag", "count", "text", "theme", "absent"]
        for _ in 0..<600 {
            if random.next() % 8 == 0 {
                version = Int(random.next() % UInt64(sets.count))
                // The in-memory transport hands the set over, and the client applies it, before `serve` returns.
                try fixture.server.serve(sets[version])
                continue
            }
            let key = keys[Int(random.next() % UInt64(keys.count))]
            let requested = Requested.allCases[Int(random.next() % UInt64(Requested.allCases.count))]
            let (reason, type) = read(fixture.client, key, requested, random.next() % 2 == 0)
            let expected = try await freshReason(version, key, requested)
            #expect(reason == expected, "\(key) read as \(type) in version \(version)")
            counted["\(key) \(expected.rawValue) \(type)", default: 0] += 1
        }
        var sent: [String: Int] = [:]
        for aggregate in try await flushedBatch(fixture).evaluatedConfigs {
            let event = aggregate.event
            sent["\(event.key) \(event.reason.rawValue) \(event.requestedType)", default: 0] += aggregate.count
        }
        #expect(sent == counted)
    }
}
