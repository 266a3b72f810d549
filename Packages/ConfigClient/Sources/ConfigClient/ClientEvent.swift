@_spi(Internal) public import ConfigModel

/// A lifecycle change of the client, published on ``ConfigDirectorClient/events``.
public enum ClientEvent: Sendable, Hashable {
    /// The client received config state and is ready, after the action given.
    case ready(ConnectReason)
    /// Config values arrived: `keys` lists the configs the payload carried (only the changed ones on
    /// a delta) and `removedKeys` those a full payload dropped.
    case configsUpdated(ConfigsUpdate)
    /// The context took effect; published before `ready`.
    case contextUpdated(ConfigDirectorContext?)
}
