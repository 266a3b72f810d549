@_spi(Internal) internal import ConfigTransport

/// Hands the client its test client's in-memory server as its transport.
struct InMemoryTransportFactory: TransportFactory {
    let server: InMemoryServer

    func makeTransport(handler: @escaping @Sendable (TransportEvent) -> Void) -> any Transport {
        server.attach(handler)
        return server
    }
}
