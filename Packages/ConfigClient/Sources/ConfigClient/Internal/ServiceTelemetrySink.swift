@_spi(Internal) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport

/// Sends telemetry batches to ConfigDirector's telemetry endpoint.
struct ServiceTelemetrySink: TelemetrySink {
    private let reporter: TelemetryReporter

    init(clientSDKKey: String, endpoint: ServiceEndpoint, metaContext: MetaContext, logger: any ConfigDirectorLogger) {
        // Telemetry bodies carry no instance id (PROTOCOL §6), so none is read from storage for it.
        reporter = TelemetryReporter(
            configuration: TransportConfiguration(
                clientSDKKey: clientSDKKey,
                endpoint: endpoint,
                metaContext: metaContext,
                instanceID: "",
                logger: logger
            )
        )
    }

    func send(_ batch: TelemetryBatch) async -> Bool {
        if case .stopped = await reporter.send(batch) { return false }
        return true
    }

    func close() {
        reporter.close()
    }
}
