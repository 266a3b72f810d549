@_spi(Testing) import ClientTestSupport
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@_spi(Internal) @_spi(Testing) @testable import ConfigClient

@Suite("Telemetry", .timeLimit(.minutes(1)))
struct TelemetryTests {
    @Test("identical evaluations are aggregated into one event with a count, flushed 5 s after creation")
    func aggregatesAndFlushesAtFiveSeconds() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "user-1"))
        for _ in 0..<42 { _ = fixture.client.value(for: "dark-mode", default: false) }
        _ = fixture.client.value(for: "missing", default: 3)

        await fixture.advance(by: 4.9)
        #expect(fixture.telemetry.batches.isEmpty)
        await fixture.advance(by: 0.2)
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        let batch = try #require(fixture.telemetry.batches.first)
        #expect(batch.context?.id == "user-1")
        #expect(batch.droppedEvaluatedConfigCount == 0)
        let darkMode = try #require(batch.evaluatedConfigs.first { $0.event.key == "dark-mode" })
        #expect(darkMode.count == 42)
        #expect(darkMode.event.requestedType == "Bool")
        #expect(darkMode.event.type == .boolean)
        #expect(darkMode.event.defaultValue == .text("false"))
        #expect(darkMode.event.evaluatedValue == .text("true"))
        #expect(darkMode.event.evaluatedValueID == "on")
        #expect(!darkMode.event.usedDefault)
        #expect(darkMode.event.reason == .foundMatch)
        let missing = try #require(batch.evaluatedConfigs.first { $0.event.key == "missing" })
        #expect(missing.event.type == nil)
        #expect(missing.event.evaluatedValueID == nil)
        #expect(missing.event.usedDefault)
        #expect(missing.event.requestedType == "Int")
    }

    @Test("after the first flush, one every 30 s, and nothing when there is nothing to send")
    func flushInterval() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        // The flush timer sleeps on the clock before time moves: on a loaded machine it may arm late, and a
        // first flush that came after the read below would be taken for the 30 s one.
        #expect(await eventually { fixture.clock.sleeperCount == 1 })
        await fixture.advance(by: 5.1)
        #expect(fixture.telemetry.batches.isEmpty)
        #expect(await eventually { fixture.clock.sleeperCount == 1 }, "the next flush's timer is armed")
        _ = fixture.client.value(for: "dark-mode", default: false)
        await fixture.advance(by: 29.8)
        #expect(fixture.telemetry.batches.isEmpty)
        await fixture.advance(by: 0.3)
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
    }

    @Test("a context change flushes pending events with the previous context")
    func contextChangeFlushes() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "first"))
        _ = fixture.client.value(for: "dark-mode", default: false)
        await fixture.client.updateContext(ConfigDirectorContext(id: "second"))
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        #expect(fixture.telemetry.batches.first?.context?.id == "first")
        #expect(fixture.telemetry.batches.first?.evaluatedConfigs.first?.event.contextID == "first")
    }

    @Test("a flush that sends restarts the timer: the next comes an interval after it, and the earlier one never")
    func sendingFlushRestartsTheTimer() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        #expect(await eventually { fixture.clock.requestedDelays == [TelemetryCollector.firstFlushDelay] })
        _ = fixture.client.value(for: "dark-mode", default: false)
        fixture.lifecycle.send(.didEnterBackground)
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        // The first flush's sleep gave way to one of a whole interval.
        #expect(await eventually { fixture.clock.requestedDelays.last == TelemetryCollector.flushInterval })
        #expect(await eventually { fixture.clock.sleeperCount == 1 })
        _ = fixture.client.value(for: "greeting", default: "")
        await fixture.advance(by: 29.8)
        #expect(fixture.telemetry.batches.count == 1, "nothing at 5 s, where the first flush was due")
        await fixture.advance(by: 0.3)
        #expect(await eventually { fixture.telemetry.batches.count == 2 })
        #expect(fixture.telemetry.batches.last?.evaluatedConfigs.map(\.event.key) == ["greeting"])
    }

    @Test("entering the background and closing flush")
    func backgroundAndCloseFlush() async throws {
        let fixture = try ClientFixture()
        await fixture.client.initialize()
        _ = fixture.client.value(for: "dark-mode", default: false)
        fixture.lifecycle.send(.didEnterBackground)
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        _ = fixture.client.value(for: "greeting", default: "")
        fixture.client.close()
        #expect(await eventually { fixture.telemetry.batches.count == 2 })
        #expect(fixture.telemetry.batches.last?.evaluatedConfigs.first?.event.key == "greeting")
    }

    @Test("at most 1,000 distinct events are held; the oldest are dropped and counted")
    func boundedQueue() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        await fixture.client.initialize()
        for index in 0..<1_005 { _ = fixture.client.value(for: "key-\(index)", default: false) }
        _ = fixture.client.value(for: "key-1004", default: false)
        fixture.lifecycle.send(.didEnterBackground)
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        let batch = try #require(fixture.telemetry.batches.first)
        #expect(batch.evaluatedConfigs.count == 1_000)
        #expect(batch.droppedEvaluatedConfigCount == 5)
        #expect(batch.evaluatedConfigs.first?.event.key == "key-5")
        #expect(batch.evaluatedConfigs.last?.count == 2)
    }

    @Test("JSON values and values over 500 characters are sent as value ids")
    func valueIDRule() async throws {
        let long = String(repeating: "a", count: 600)
        let fixture = try ClientFixture(
            answer: .deliver(
                ConfigSet(configs: [
                    "long": ConfigState(type: .string, value: long),
                    "theme": ConfigState(type: .json, value: #"{"a":1}"#, valueID: "server-id"),
                    "short": ConfigState(type: .string, value: "abc"),
                ])
            )
        )
        defer { fixture.client.close() }
        await fixture.client.initialize()
        _ = fixture.client.value(for: "long", default: "")
        _ = fixture.client.value(for: "theme", default: "")
        _ = fixture.client.value(for: "short", default: "")
        fixture.lifecycle.send(.didEnterBackground)
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        let events = try #require(fixture.telemetry.batches.first).evaluatedConfigs.map(\.event)
        #expect(events.first { $0.key == "long" }?.evaluatedValue == .valueID(ValueID(of: long).rawValue))
        #expect(events.first { $0.key == "theme" }?.evaluatedValue == .valueID("server-id"))
        #expect(events.first { $0.key == "short" }?.evaluatedValue == .text("abc"))
    }

    @Test("a sink that refuses stops telemetry for good")
    func fatalStopsTelemetry() async throws {
        let fixture = try ClientFixture()
        defer { fixture.client.close() }
        fixture.telemetry.refuseFromNowOn()
        _ = fixture.client.value(for: "a", default: false)
        fixture.lifecycle.send(.didEnterBackground)
        #expect(await eventually { fixture.telemetry.batches.count == 1 })
        _ = fixture.client.value(for: "b", default: false)
        fixture.lifecycle.send(.didEnterBackground)
        // Once the client went quiet, a batch the second flush had queued was given to the sink.
        await fixture.client.core.wentQuiet()
        #expect(fixture.telemetry.batches.count == 1)
    }
}
