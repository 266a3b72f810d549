@_spi(Internal) @_spi(Testing) public import ConfigClient
internal import TestSupport

/// An app lifecycle that a test or a benchmark drives with ``send(_:)``.
@_spi(Testing) public final class ManualLifecycleObserver: AppLifecycleObserver {
    private struct State {
        var handler: (@Sendable (AppLifecycleEvent) -> Void)?
        var isStopped = false
    }

    private let state = Protected(State())

    /// A lifecycle that reports nothing until a test sends an event.
    public init() {}

    /// Keeps the client's handler.
    public func start(_ handler: @escaping @Sendable (AppLifecycleEvent) -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// Drops the handler.
    public func stop() {
        state.withLock { state in
            state.handler = nil
            state.isStopped = true
        }
    }

    /// Whether the client stopped observing.
    public var isStopped: Bool { state.withLock(\.isStopped) }

    /// Reports `event` to the client, on the caller's thread.
    public func send(_ event: AppLifecycleEvent) {
        let handler = state.withLock(\.handler)
        handler?(event)
    }
}
