@_spi(Internal) public import ConfigModel

/// The namespace of the app's typed config keys: extend it with one static property per config.
///
/// ```swift
/// extension ConfigKeys {
///     static let darkMode = ConfigKey("dark-mode", default: false)
///     static let maxItems = ConfigKey("max-items", default: 20)
///     static let theme = JSONConfigKey("theme", as: Theme.self, default: .fallback)
/// }
///
/// let darkMode = client.value(for: .darkMode)
/// let maxItems = client[.maxItems]
/// for await theme in client.values(for: .theme) { apply(theme) }
/// ```
///
/// ``ConfigKey`` and ``JSONConfigKey`` are its subclasses, so that a static property of `ConfigKeys`
/// is found with a leading dot wherever a key is expected, and its type is checked at compile time.
/// It is immutable, and cannot be subclassed outside the SDK.
public class ConfigKeys: @unchecked Sendable {
    // `@unchecked`: Swift allows `Sendable` on a non-final class only unchecked. This class holds one
    // `let` string, and its two subclasses hold only `let`s of `Sendable` types.

    /// The config key, as the dashboard shows it.
    public let name: String

    init(name: String) {
        self.name = name
    }
}

/// A typed key of a config read as a ``ConfigValue``: `Bool`, `String`, `Int`, `Double`, or a type of
/// your own that conforms.
///
/// Declare each key once, with its type and its default value, as a static property of
/// ``ConfigKeys``:
///
/// ```swift
/// extension ConfigKeys {
///     static let darkMode = ConfigKey("dark-mode", default: false)
/// }
///
/// let darkMode = client.value(for: .darkMode)
/// ```
///
/// Reading a key is exactly `value(for:default:)` with its name and default value: the same reasons,
/// the same telemetry, the same speed.
public final class ConfigKey<Value: ConfigValue>: ConfigKeys, @unchecked Sendable {
    // `@unchecked` only restates the conformance inherited from `ConfigKeys`: every stored property
    // is a `let` of a `Sendable` type.

    /// The value returned when the config cannot be served; it sets the type the config is read as.
    public let defaultValue: Value

    /// Creates a typed key.
    /// - Parameters:
    ///   - name: The config key, as the dashboard shows it.
    ///   - defaultValue: The value returned when the config cannot be served.
    public init(_ name: String, default defaultValue: Value) {
        self.defaultValue = defaultValue
        super.init(name: name)
    }
}

/// A typed key of a JSON config, decoded as a `Decodable` type.
///
/// ```swift
/// extension ConfigKeys {
///     static let theme = JSONConfigKey("theme", as: Theme.self, default: .fallback)
/// }
///
/// let theme = client.value(for: .theme)
/// ```
///
/// Reading it is exactly `value(for:as:default:)` with its name, type and default value.
public final class JSONConfigKey<Value: Decodable & Sendable>: ConfigKeys, @unchecked Sendable {
    // `@unchecked` only restates the conformance inherited from `ConfigKeys`: every stored property
    // is a `let` of a `Sendable` type.

    /// The value returned when the config is missing, not JSON, or does not decode.
    public let defaultValue: Value

    /// Creates a typed key of a JSON config.
    /// - Parameters:
    ///   - name: The config key, as the dashboard shows it.
    ///   - type: The `Decodable` type the document is decoded as.
    ///   - defaultValue: The value returned when the config is missing, not JSON, or does not decode.
    public init(_ name: String, as type: Value.Type, default defaultValue: Value) {
        self.defaultValue = defaultValue
        super.init(name: name)
    }
}

extension ConfigDirectorClient {
    /// The value of a typed config key: `value(for: key.name, default: key.defaultValue)`.
    ///
    /// ```swift
    /// let darkMode = client.value(for: .darkMode)
    /// ```
    /// - Parameter key: The typed key.
    /// - Returns: The served value, or the key's default value.
    @inlinable
    @discardableResult
    public func value<Value>(for key: ConfigKey<Value>) -> Value {
        value(for: key.name, default: key.defaultValue)
    }

    /// The value of a typed JSON config key: `value(for: key.name, as: Value.self, default: key.defaultValue)`.
    /// - Parameter key: The typed key.
    /// - Returns: The decoded value, or the key's default value.
    @discardableResult
    public func value<Value>(for key: JSONConfigKey<Value>) -> Value {
        value(for: key.name, as: Value.self, default: key.defaultValue)
    }

    /// The value of a typed config key, as `value(for:)` reads it.
    ///
    /// ```swift
    /// if client[.darkMode] { applyDarkTheme() }
    /// ```
    /// - Parameter key: The typed key.
    public subscript<Value>(key: ConfigKey<Value>) -> Value {
        value(for: key.name, default: key.defaultValue)
    }

    /// The value of a typed JSON config key, as `value(for:)` reads it.
    /// - Parameter key: The typed key.
    public subscript<Value>(key: JSONConfigKey<Value>) -> Value {
        value(for: key.name, as: Value.self, default: key.defaultValue)
    }

    /// A stream of a typed config key's value: `values(for: key.name, default: key.defaultValue)`.
    ///
    /// ```swift
    /// for await darkMode in client.values(for: .darkMode) { isOn = darkMode }
    /// ```
    /// - Parameter key: The typed key.
    /// - Returns: A stream of the evaluated value: the current value at once, then each change.
    public func values<Value>(for key: ConfigKey<Value>) -> AsyncStream<Value> {
        values(for: key.name, default: key.defaultValue)
    }

    /// A stream of a typed JSON config key's value: `values(for: key.name, as: Value.self, default: key.defaultValue)`.
    /// - Parameter key: The typed key; its type must be `Equatable`, which tells the stream when it changed.
    /// - Returns: A stream of the decoded value: the current value at once, then each change.
    public func values<Value: Equatable>(for key: JSONConfigKey<Value>) -> AsyncStream<Value> {
        values(for: key.name, as: Value.self, default: key.defaultValue)
    }
}
