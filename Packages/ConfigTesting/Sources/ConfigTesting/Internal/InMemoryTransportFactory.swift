@_spi(Internal) public import ConfigTransport

/// Hands the client its test client's in-memory server as its transport.
@_spi(Testing) public struct InMemoryTransportFactory: TransportFactory {
    let server: InMemoryServer

    /// A factory that hands the client `server`.
    public init(server: InMemoryServer) {
        self.server = server
    }

    /// Attaches the client's handler to the server and returns the server.
    public func makeTransport(handler: @escaping @Sendable (TransportEvent) -> Void) -> any Transport {
        server.attach(handler)
        return server
    }
}
