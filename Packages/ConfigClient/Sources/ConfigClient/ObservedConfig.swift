#if canImport(Observation)
@_spi(Internal) public import ConfigModel
public import Observation

/// The current value of one config, as an `@Observable` object on the main actor: a SwiftUI view that
/// reads ``value`` re-renders when the evaluated value changes, with no `.task` loop.
///
/// ```swift
/// struct DarkModeToggle: View {
///     @State private var darkMode: ObservedConfig<Bool>
///
///     init(client: ConfigDirectorClient) {
///         _darkMode = State(initialValue: ObservedConfig(.darkMode, client: client))
///     }
///
///     var body: some View {
///         Text(darkMode.value ? "Dark" : "Light")
///     }
/// }
/// ```
///
/// It follows the rules of `values(for:)`: ``value`` is the current value from the start, it changes
/// only when the evaluated value differs from the last one, it is the key's default value when a full
/// payload drops the config, and it follows the context's values after `updateContext`. Each value it
/// takes is evaluated like a `values(for:)` element: reported to telemetry and published on
/// `evaluations`. The client evaluates off the main actor, after its lock is released, and the object
/// takes the new value on the main actor. It stops following when it is released, and when the client
/// closes it keeps its last value.
///
/// On iOS 15–16, macOS 12–13, tvOS 15–16 and watchOS 8–9, where Observation is not available, drive a
/// `@State` from `values(for:)` in a `.task` instead.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class ObservedConfig<Value: Equatable & Sendable> {
    /// The config's current value.
    public private(set) var value: Value

    /// The config key followed.
    @ObservationIgnored public let key: String

    /// The follower of the key, when this object follows it itself (not as a slot of ``ObservedConfigs``).
    @ObservationIgnored private let follower: ConfigFollower?

    /// Follows a typed key of a ``ConfigValue`` config.
    /// - Parameters:
    ///   - key: The typed key.
    ///   - client: The client to follow it on.
    public convenience init(_ key: ConfigKey<Value>, client: ConfigDirectorClient) where Value: ConfigValue {
        self.init(key.name, client: client, client.watchedEvaluation(of: key.name, default: key.defaultValue))
    }

    /// Follows a typed key of a JSON config.
    /// - Parameters:
    ///   - key: The typed key; its type must be `Equatable`, which tells when the value changed.
    ///   - client: The client to follow it on.
    public convenience init(_ key: JSONConfigKey<Value>, client: ConfigDirectorClient) where Value: Decodable {
        self.init(
            key.name, client: client, client.watchedEvaluation(of: key.name, as: Value.self, default: key.defaultValue))
    }

    /// Follows `key` read as the type of `defaultValue`, as `values(for:default:)` does.
    /// - Parameters:
    ///   - key: The config key.
    ///   - defaultValue: The value held when the config cannot be served; it sets the type read.
    ///   - client: The client to follow it on.
    public convenience init(_ key: String, default defaultValue: Value, client: ConfigDirectorClient)
    where Value: ConfigValue {
        self.init(key, client: client, client.watchedEvaluation(of: key, default: defaultValue))
    }

    private init(_ key: String, client: ConfigDirectorClient, _ evaluation: WatchedEvaluation<Value>) {
        let follower = ConfigFollower(client: client)
        self.key = key
        self.follower = follower
        value = follower.follow(key, slot: Self.ownSlot, evaluation)
        follower.start(self)
    }

    /// A slot of an ``ObservedConfigs``, followed by its follower.
    init(key: String, value: Value) {
        self.key = key
        self.follower = nil
        self.value = value
    }

    deinit {
        follower?.stop()
    }

    /// Takes a new value; an equal one changes nothing, so that no view re-renders for it.
    func take(_ newValue: Value) {
        if newValue != value { value = newValue }
    }

    /// The slot of an object that follows its key itself.
    private static var ownSlot: ObjectIdentifier { ObjectIdentifier(ConfigFollower.self) }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension ObservedConfig: ConfigFollowerTarget {
    func receive(_ value: any Sendable, slot: ObjectIdentifier) {
        if let value = value as? Value { take(value) }
    }
}

/// The current values of a set of configs, on the main actor: each key read through it is followed from
/// its first read, and a SwiftUI view re-renders when a key it read changes (each key is observed on
/// its own).
///
/// ```swift
/// struct Checkout: View {
///     @State private var configs: ObservedConfigs
///
///     init(client: ConfigDirectorClient) {
///         _configs = State(initialValue: ObservedConfigs(client: client))
///     }
///
///     var body: some View {
///         Text(configs[.greeting])
///             .foregroundStyle(configs[.darkMode] ? .white : .black)
///     }
/// }
/// ```
///
/// Each key follows the rules of ``ObservedConfig``. The values of all its keys are taken in the order
/// the client evaluated them. It stops following every key when it is released.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor
public final class ObservedConfigs {
    private let client: ConfigDirectorClient
    private let follower: ConfigFollower
    /// The slots, by the identity of their typed key.
    private var slots: [ObjectIdentifier: AnyObject] = [:]

    /// Creates an object that follows the keys read through it on `client`.
    /// - Parameter client: The client to follow the keys on.
    public init(client: ConfigDirectorClient) {
        self.client = client
        follower = ConfigFollower(client: client)
        follower.start(self)
    }

    deinit {
        follower.stop()
    }

    /// The current value of a typed key, which is followed from its first read.
    /// - Parameter key: The typed key.
    public subscript<Value>(key: ConfigKey<Value>) -> Value {
        slot(for: key) { client.watchedEvaluation(of: key.name, default: key.defaultValue) }.value
    }

    /// The current value of a typed JSON key, which is followed from its first read.
    /// - Parameter key: The typed key; its type must be `Equatable`, which tells when the value changed.
    public subscript<Value: Equatable>(key: JSONConfigKey<Value>) -> Value {
        slot(for: key) { client.watchedEvaluation(of: key.name, as: Value.self, default: key.defaultValue) }.value
    }

    private func slot<Value>(
        for key: ConfigKeys,
        _ evaluation: () -> WatchedEvaluation<Value>
    ) -> ObservedConfig<Value> {
        let id = ObjectIdentifier(key)
        if let slot = slots[id] as? ObservedConfig<Value> { return slot }
        let slot = ObservedConfig(key: key.name, value: follower.follow(key.name, slot: id, evaluation()))
        slots[id] = slot
        return slot
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension ObservedConfigs: ConfigFollowerTarget {
    func receive(_ value: any Sendable, slot: ObjectIdentifier) {
        (slots[slot] as? any ConfigFollowerTarget)?.receive(value, slot: slot)
    }
}
#endif

#if canImport(SwiftUI)
public import SwiftUI

/// A SwiftUI property wrapper over ``ObservedConfig``: the current value of a typed key, which
/// re-renders the view when it changes.
///
/// ```swift
/// struct DarkModeLabel: View {
///     @ObservedConfigValue private var darkMode: Bool
///
///     init(client: ConfigDirectorClient) {
///         _darkMode = ObservedConfigValue(.darkMode, client: client)
///     }
///
///     var body: some View {
///         Text(darkMode ? "Dark" : "Light")
///     }
/// }
/// ```
///
/// It keeps its ``ObservedConfig`` in `@State`, so the view follows the key for as long as it is on
/// screen; `$darkMode` is that object.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor
@propertyWrapper
public struct ObservedConfigValue<Value: Equatable & Sendable>: DynamicProperty {
    @State private var observed: ObservedConfig<Value>

    /// Follows a typed key of a ``ConfigValue`` config.
    /// - Parameters:
    ///   - key: The typed key.
    ///   - client: The client to follow it on.
    public init(_ key: ConfigKey<Value>, client: ConfigDirectorClient) where Value: ConfigValue {
        _observed = State(initialValue: ObservedConfig(key, client: client))
    }

    /// Follows a typed key of a JSON config.
    /// - Parameters:
    ///   - key: The typed key.
    ///   - client: The client to follow it on.
    public init(_ key: JSONConfigKey<Value>, client: ConfigDirectorClient) where Value: Decodable {
        _observed = State(initialValue: ObservedConfig(key, client: client))
    }

    /// The config's current value.
    public var wrappedValue: Value { observed.value }

    /// The observed config itself.
    public var projectedValue: ObservedConfig<Value> { observed }
}
#endif
