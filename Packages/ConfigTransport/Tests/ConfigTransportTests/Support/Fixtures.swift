@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

/// Shared values and builders for the transport tests.
enum Fixtures {
    static let sdkKey = "client-sdk-key-SECRET-123"
    static let instanceID = "8F0C3A4E-1111-2222-3333-444455556666"
    static let metaContext = MetaContext(appName: "MyApp", appVersion: "1.0.2", userAgent: "iOS")
    static let context = ConfigDirectorContext(id: "user-123", name: "Ada", traits: ["plan": "pro"])

    static let fullSetJSON = """
        {"environmentId":"env-1","projectId":"proj-1","kind":"full","timestamp":"2026-08-29T00:00:00Z",\
        "configs":{"dark-mode":{"id":"c1","key":"dark-mode","type":"boolean","value":"true","valueId":"on"}}}
        """
    static let deltaSetJSON = """
        {"kind":"delta","timestamp":"2026-08-29T00:01:00Z",\
        "configs":{"theme":{"id":"c2","key":"theme","type":"string","value":"dark"}}}
        """

    static func configuration(
        clock: ManualClock,
        logger: RecordingLogger = RecordingLogger(forbidding: [Fixtures.sdkKey]),
        random: @escaping @Sendable () -> Double = { 0.5 },
        maxEventSize: Int = TransportConfiguration.defaultMaxEventSize,
        pollingInterval: Double = 60,
        connectionTimeout: Double = TransportConfiguration.defaultConnectionTimeout
    ) -> TransportConfiguration {
        TransportConfiguration(
            clientSDKKey: sdkKey,
            endpoint: ServiceEndpoint(baseURL: URL(string: "https://proxy.example.com/cd")!),
            metaContext: metaContext,
            instanceID: instanceID,
            logger: logger,
            maxEventSize: maxEventSize,
            pollingInterval: pollingInterval,
            connectionTimeout: connectionTimeout,
            clock: clock,
            randomFraction: random
        )
    }

    static func makeTransport(
        _ mode: HTTPTransportFactory.Mode,
        configuration: TransportConfiguration,
        http: FakeHTTPClient,
        recorder: TransportEventRecorder
    ) -> any Transport {
        HTTPTransportFactory(mode: mode, configuration: configuration, httpClient: { http })
            .makeTransport(handler: recorder.handler)
    }

    static func event(_ json: String, id: String? = nil) -> String {
        (id.map { "id: \($0)\n" } ?? "") + "data: \(json)\n\n"
    }

    /// The JSON object a request sent.
    static func body(of request: HTTPRequest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
    }
}
