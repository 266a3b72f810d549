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
}
