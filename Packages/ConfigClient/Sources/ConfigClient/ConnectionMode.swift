/// How config values reach the client, set in ``ConnectionOptions/mode``.
public enum ConnectionMode: Sendable, Hashable {
    /// Holds a connection open and receives changes as they happen, reconnecting with a backoff.
    case streaming
    /// Fetches the config state every ``ConnectionOptions/pollingInterval`` seconds.
    case polling
    /// Connects to nothing and serves the values given in ``ConfigDirectorClientOptions/values``.
    case offline
}
