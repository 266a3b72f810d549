@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Internal) import ConfigTransport
import Foundation
import Testing

@Suite("Transports told the reason of each connect")
struct ConnectReasonAwareTransportTests {
    @Test("initialize, updateContext and resumeNetwork connect with their own reason and context")
    func reasonsReachTheTransport() async throws {
        let factory = ReasonRecordingTransportFactory()
        let client = try ConfigDirectorClient(
            clientSDKKey: "test-key",
            options: ConfigDirectorClientOptions(logger: RecordingLogger(), caching: CachingOptions(enabled: false)),
            environment: ClientEnvironment(
                transportFactory: factory,
                telemetry: .disabled,
                lifecycleObserver: ManualLifecycleObserver(),
                clock: ManualClock()
            )
        )
        defer { client.close() }
        let first = ConfigDirectorContext(id: "user-1")
        let second = ConfigDirectorContext(id: "user-2")

        await client.initialize(context: first)
        await client.updateContext(second)
        client.pauseNetwork()
        await client.resumeNetwork()

        let transport = try factory.transport
        #expect(transport.connects.map(\.reason) == [.initialization, .contextUpdate, .networkResume])
        #expect(transport.connects.map(\.context) == [first, second, second])
        #expect(transport.plainConnects == 0)
        #expect(client.isReady)
    }
}

/// A transport that records the reason of each connect and answers every connect with the sample set.
private final class ReasonRecordingTransport: ConnectReasonAwareTransport, @unchecked Sendable {
    struct Connect: Equatable {
        var reason: ConnectReason
        var context: ConfigDirectorContext?
    }

    // `recorded` and `plainConnectCount` are guarded by `lock`; `handler` is set once in `init`.
    private let lock = NSLock()
    private let handler: @Sendable (TransportEvent) -> Void
    private var recorded: [Connect] = []
    private var plainConnectCount = 0

    init(handler: @escaping @Sendable (TransportEvent) -> Void) {
        self.handler = handler
    }

    var connects: [Connect] { lock.withLock { recorded } }
    var plainConnects: Int { lock.withLock { plainConnectCount } }

    func connect(context: ConfigDirectorContext?, timeout: Double) async throws(ConfigDirectorError) {
        lock.withLock { plainConnectCount += 1 }
        handler(.configSet(.sample))
    }

    func connect(
        context: ConfigDirectorContext?,
        timeout: Double,
        reason: ConnectReason
    ) async throws(ConfigDirectorError) {
        lock.withLock { recorded.append(Connect(reason: reason, context: context)) }
        handler(.configSet(.sample))
    }

    func disconnect() {}

    func close() {}
}

private final class ReasonRecordingTransportFactory: TransportFactory, @unchecked Sendable {
    // `made` is guarded by `lock`.
    private let lock = NSLock()
    private var made: ReasonRecordingTransport?

    func makeTransport(handler: @escaping @Sendable (TransportEvent) -> Void) -> any Transport {
        let transport = ReasonRecordingTransport(handler: handler)
        lock.withLock { made = transport }
        return transport
    }

    var transport: ReasonRecordingTransport {
        get throws {
            guard let made = lock.withLock({ made }) else { throw ClientFixture.FixtureError.notConnected }
            return made
        }
    }
}
