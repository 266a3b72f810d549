/// A change of the app's lifecycle that the client reacts to.
@_spi(Testing)
public enum AppLifecycleEvent: Sendable, Hashable {
    /// The app entered the background.
    case didEnterBackground
    /// The app is returning to the foreground.
    case willEnterForeground
}

/// Tells the client when the app enters the background and returns to the foreground.
@_spi(Testing)
public protocol AppLifecycleObserver: Sendable {
    /// Starts delivering lifecycle events to `handler` until ``stop()``.
    /// - Parameter handler: Receives each event.
    func start(_ handler: @escaping @Sendable (AppLifecycleEvent) -> Void)

    /// Stops delivering events.
    func stop()
}
