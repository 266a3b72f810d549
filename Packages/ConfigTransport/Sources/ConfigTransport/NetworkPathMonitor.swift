#if canImport(Network)
internal import Network
#endif

/// Tells the streaming transport whether the device has a usable network path, so that a stream in backoff
/// reconnects as soon as the network returns, and no attempt is spent while there is none.
///
/// The SDK's own is ``system`` (`NWPathMonitor` on Apple platforms, none on Linux); tests give a manual one.
@_spi(Internal) public protocol NetworkPathMonitor: Sendable {
    /// Starts reporting: `onChange` is called with whether the path is satisfied, at once or when first
    /// known, then at every change.
    /// - Parameter onChange: Receives `true` when the network can be used.
    func start(onChange: @escaping @Sendable (_ isSatisfied: Bool) -> Void)

    /// Stops reporting, for good.
    func cancel()
}

/// The platform's network path monitor, where the platform has one.
@_spi(Internal) public enum SystemNetworkPath {
    /// A new monitor of the device's network path: `NWPathMonitor` on Apple platforms, `nil` on Linux.
    /// - Returns: The monitor, or `nil` where the platform has none.
    public static func makeMonitor() -> (any NetworkPathMonitor)? {
        #if canImport(Network)
        NWNetworkPathMonitor()
        #else
        nil
        #endif
    }
}

#if canImport(Network)
/// `NWPathMonitor` as a ``NetworkPathMonitor``: the Apple-only lines of the reachability seam.
final class NWNetworkPathMonitor: NetworkPathMonitor {
    private let monitor = NWPathMonitor()

    func start(onChange: @escaping @Sendable (Bool) -> Void) {
        monitor.pathUpdateHandler = { path in onChange(path.status == .satisfied) }
        monitor.start(queue: DispatchQueue(label: "ConfigDirector.NetworkPath"))
    }

    func cancel() {
        monitor.cancel()
    }
}
#endif
