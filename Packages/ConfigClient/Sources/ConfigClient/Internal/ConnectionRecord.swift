@_spi(Internal) internal import ConfigModel
internal import Foundation

/// What a client knows of its connection beside its lifecycle, for ``ConnectionHealth``: what the transport said
/// last since the newest connect began, when values last arrived, and the last failure. Part of ``ClientState``,
/// guarded by the core's lock with the rest.
struct ConnectionRecord {
    /// What the transport said last about the connection of the newest connect.
    enum Phase: Equatable {
        /// A connect began, or a retry's time came, and nothing answered yet.
        case connecting
        /// The connection opened, a poll succeeded, or a set arrived.
        case open
        /// A failed connection or poll tries again at `until`.
        case waiting(until: Date)
        /// The service stopped the connection for good: with a refusal's error, or none for a 204.
        case stopped(ConfigDirectorError?)
    }

    var phase = Phase.connecting
    /// When a set last arrived from the service, or offline values were applied.
    var lastValuesReceived: Date?
    /// The most recent failure, kept after recovery.
    var lastFailure: ConnectionHealth.Failure?
    /// The health last published on ``ClientCore/healthUpdates``, so that only a change is published.
    var published: ConnectionHealth?
}
