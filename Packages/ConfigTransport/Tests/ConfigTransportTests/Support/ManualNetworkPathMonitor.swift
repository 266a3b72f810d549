@_spi(Internal) import ConfigTransport
import TestSupport

/// A network path a test turns on and off.
final class ManualNetworkPathMonitor: NetworkPathMonitor {
    private let onChange = Protected<(@Sendable (Bool) -> Void)?>(nil)
    private let cancelled = Protected(false)

    var isCancelled: Bool { cancelled.current }

    func start(onChange: @escaping @Sendable (Bool) -> Void) {
        self.onChange.set(onChange)
    }

    func cancel() {
        cancelled.set(true)
    }

    /// Reports the path satisfied or not.
    func report(satisfied: Bool) {
        onChange.current?(satisfied)
    }
}
