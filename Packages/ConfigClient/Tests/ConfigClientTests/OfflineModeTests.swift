@_spi(Testing) import ClientTestSupport
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@Suite("Offline mode", .timeLimit(.minutes(1)))
struct OfflineModeTests {
    @Test("initialize returns at once with the client ready and the given values served")
    func servesGivenValues() async throws {
        let client = try ConfigDirectorClient(
            options: ConfigDirectorClientOptions(
                connection: ConnectionOptions(mode: .offline),
                values: ["new-checkout": true, "max-items": 20, "ratio": 2.5, "name": "Ada", "theme": ["a": 1]]
            )
        )
        defer { client.close() }
        var events = client.events.makeAsyncIterator()
        await client.initialize(context: ConfigDirectorContext(id: "user-1"))

        #expect(client.isReady)
        #expect(!client.isInitializing)
        #expect(await events.next() == .contextUpdated(ConfigDirectorContext(id: "user-1")))
        #expect(await events.next() == .ready(.initialization))
        #expect(client.value(for: "new-checkout", default: false))
        #expect(client.value(for: "max-items", default: 0) == 20)
        #expect(client.value(for: "ratio", default: 0.0) == 2.5)
        #expect(client.value(for: "name", default: "") == "Ada")
        #expect(client.value(for: "theme", default: "") == #"{"a":1}"#)
    }

    @Test("no connection, telemetry or storage is used")
    func usesNothing() async throws {
        let factory = ScriptedTransportFactory(answer: .hold)
        let telemetry = RecordingTelemetrySink()
        let provider = InMemoryCachingProvider()
        let clock = ManualClock()
        let client = try ConfigDirectorClient(
            clientSDKKey: "",
            options: ConfigDirectorClientOptions(
                connection: ConnectionOptions(mode: .offline),
                caching: CachingOptions(provider: provider),
                values: ["a": true]
            ),
            environment: ClientEnvironment(transportFactory: factory, telemetry: .sink(telemetry), clock: clock)
        )
        await client.initialize()
        _ = client.value(for: "a", default: false)
        clock.advance(by: 60)
        // After the tail of closing, the last telemetry batch and the last write of the kept values are done.
        await client.closeAndWait()
        #expect(factory.transportsMade == 0)
        #expect(telemetry.batches.isEmpty)
        #expect(provider.read() == nil)
    }
}
