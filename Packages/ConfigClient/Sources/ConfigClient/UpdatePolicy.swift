/// When values received while the app runs reach its reads.
///
/// ```swift
/// let client = try ConfigDirectorClient(
///     clientSDKKey: "YOUR-CLIENT-SDK-KEY",
///     options: ConfigDirectorClientOptions(updatePolicy: .onActivate)
/// )
/// await client.initialize(context: ConfigDirectorContext(id: "user-123"))
/// // Later, at a moment the app chooses (a new screen, the next session):
/// if client.activate() { print("new values from now on") }
/// ```
public enum UpdatePolicy: Sendable, Hashable {
    /// Every set of values applies as it arrives: reads, `values(for:)` streams and observed configs change at
    /// once. The default.
    case live
    /// The values that end an `initialize` or an `updateContext` apply at once (a new user's values are served
    /// as soon as they arrive); every later set (a change streamed or polled, a reconnect, `resumeNetwork`) waits
    /// as pending, the newest superseding the older, until ``ConfigDirectorClient/activate()``. Reads, streams and
    /// observed configs change only then. The pending values are also written at once to the values kept on the
    /// device (while caching is on), so the next launch serves them from the start, as it serves any kept values.
    case onActivate
}
