@_spi(Internal) @_spi(Testing) internal import ConfigClient

/// The test client's app lifecycle: it never reports a change, so `pausesWhileBackgrounded` has no
/// effect and only `pauseNetwork` and `resumeNetwork` release and restore the connection.
struct InertLifecycleObserver: AppLifecycleObserver {
    func start(_ handler: @escaping @Sendable (AppLifecycleEvent) -> Void) {}

    func stop() {}
}
