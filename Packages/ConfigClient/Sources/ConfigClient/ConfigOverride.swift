@_spi(Internal) public import ConfigModel

/// A local override: a value forced on this device for one key (see ``LocalOverrideOptions``).
public struct ConfigOverride: Sendable, Hashable {
    /// The config key.
    public var key: String
    /// The config type the value is served as.
    public var type: ConfigType
    /// The value as served text: `true`, `3`, `2.5`, the string itself, or compact JSON.
    public var value: String

    /// Creates an override.
    /// - Parameters:
    ///   - key: The config key.
    ///   - type: The config type the value is served as.
    ///   - value: The value as served text.
    public init(key: String, type: ConfigType, value: String) {
        self.key = key
        self.type = type
        self.value = value
    }

    /// The override of `state`, under `key`.
    init(key: String, state: ConfigState) {
        self.init(key: key, type: state.type, value: state.value ?? "")
    }

    /// The config state the override serves, with the value id of PROTOCOL §7.
    var configState: ConfigState {
        ConfigState(key: key, type: type, value: value, valueID: ValueID(of: value).rawValue)
    }
}
