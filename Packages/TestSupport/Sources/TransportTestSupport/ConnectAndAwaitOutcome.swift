@_spi(Internal) public import ConfigModel
@_spi(Internal) public import ConfigTransport
public import Testing

/// Connects `transport` and waits, bounded by the recorder's timeout, for the outcome that the transport
/// reports for this connect: the first `.open`, `.failed` or `.stopped` event recorded after the call.
///
/// A connection starts only once the previous one has ended, so when this returns for a second connect,
/// everything the previous connection would still have done (a retry, a reconnect, another request) has
/// shown: a test that checks that something did not happen can wait for this point.
/// - Returns: The outcome, or `nil` (with an issue recorded) when none came in time.
@discardableResult
@_spi(Testing) public func connectAndAwaitOutcome(
    _ transport: any Transport,
    context: ConfigDirectorContext? = nil,
    reason: ConnectReason = .initialization,
    recorder: TransportEventRecorder,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ConnectionState? {
    let count = recorder.states.count
    transport.connect(context: context, reason: reason)
    let outcome = await recorder.awaitOutcome(after: count)
    #expect(outcome != nil, "the connect reported no .open, .failed or .stopped", sourceLocation: sourceLocation)
    return outcome
}
