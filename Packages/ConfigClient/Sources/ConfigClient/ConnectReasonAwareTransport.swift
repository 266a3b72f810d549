@_spi(Internal) public import ConfigModel
@_spi(Internal) public import ConfigTransport

/// A transport that is told which action connects it: `initialize`, `updateContext` or `resumeNetwork`.
///
/// ``Transport`` does not carry the reason, and the HTTP transports do not need it. A transport that
/// must tell the actions apart, such as ConfigTesting's in-memory server (which holds or fails only
/// `initialize` or only `updateContext`), adopts this protocol; the client then calls
/// ``connect(context:timeout:reason:)`` instead of ``Transport/connect(context:timeout:)``.
@_spi(Testing)
public protocol ConnectReasonAwareTransport: Transport {
    /// Connects for `context`, as ``Transport/connect(context:timeout:)`` does, for `reason`.
    /// - Parameters:
    ///   - context: The context to send; `nil` sends an empty context.
    ///   - timeout: How long to wait, in seconds.
    ///   - reason: The action that connects.
    /// - Throws: ``ConfigDirectorError/connectionFailed(message:statusCode:)`` when the connection is
    ///   refused for good.
    func connect(
        context: ConfigDirectorContext?,
        timeout: Double,
        reason: ConnectReason
    ) async throws(ConfigDirectorError)
}
