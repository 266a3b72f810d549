#if canImport(Observation)
@_spi(Internal) public import ConfigModel
public import Observation

/// The current value of one config, as an `@Observable` object on the main actor: a SwiftUI view that
/// reads ``value`` re-renders when the evaluated value changes, with no `.task` loop.
///
/// ```swift
/// @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
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

    /// The follower of the key.
    @ObservationIgnored private let follower: ConfigFollower

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
        value = follower.follow(key, evaluation).value
        follower.start(self)
    }

    deinit {
        follower.stop()
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension ObservedConfig: ConfigFollowerTarget {
    /// Takes a new value of its one slot; an equal one changes nothing, so that no view re-renders for it.
    func receive(_ value: any Sendable, slot: UInt64) {
        if let value = value as? Value, value != self.value { self.value = value }
    }
}

/// The current values of a set of configs, on the main actor: each key read through it is followed from
/// its first read, and a SwiftUI view re-renders when a key it read changes (each key is observed on
/// its own).
///
/// ```swift
/// @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
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
///
/// Keys are told apart by what they mean, never by the key object: two keys of the same name, kind
/// (``ConfigKey`` or ``JSONConfigKey``), value type and default value read one followed value, and keys
/// that differ in any of these never share one. So a key may be made where it is read, in a loop
/// (`configs[ConfigKey("banner-\(screen)", default: "none")]`) or by a computed
/// `static var … { ConfigKey(…) }`, as well as declared once with `static let`.
///
/// A key stops being followed when its value changes and nothing read it through this object since
/// its previous change: an observation (a view's `body`) ends at the first change it is told of, so a
/// key unread since then has no observer left. Read again, the key is followed again from its current
/// value. The object so follows at most one slot per distinct key, and only keys read since their last
/// change or never changed since their first read.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor
public final class ObservedConfigs {
    /// What tells keys apart, beside their default value: the name and the key's type, which is the
    /// kind of key and its value type.
    private struct KeyMeaning: Hashable {
        /// The key's exact bytes: canonically equivalent spellings are different configs.
        let name: ExactKey
        let keyType: ObjectIdentifier
    }

    private let client: ConfigDirectorClient
    private let follower: ConfigFollower
    /// The slots followed, by their key's name and type; those of one name and type differ in default value.
    private var slots: [KeyMeaning: [any FollowedSlot]] = [:]
    /// The name and type of each slot's key, by the slot.
    private var meanings: [UInt64: KeyMeaning] = [:]

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
        slot(for: key, default: key.defaultValue) {
            client.watchedEvaluation(of: key.name, default: key.defaultValue)
        }.read()
    }

    /// The current value of a typed JSON key, which is followed from its first read.
    /// - Parameter key: The typed key; its type must be `Equatable`, which tells when the value changed.
    public subscript<Value: Equatable>(key: JSONConfigKey<Value>) -> Value {
        slot(for: key, default: key.defaultValue) {
            client.watchedEvaluation(of: key.name, as: Value.self, default: key.defaultValue)
        }.read()
    }

    /// The slot of the key of `key`'s name and type and of default value `defaultValue`, followed from now
    /// when there is none.
    private func slot<Value>(
        for key: ConfigKeys,
        default defaultValue: Value,
        _ evaluation: () -> WatchedEvaluation<Value>
    ) -> ObservedConfigsSlot<Value> {
        let meaning = KeyMeaning(name: ExactKey(key.name), keyType: ObjectIdentifier(type(of: key)))
        for case let slot as ObservedConfigsSlot<Value> in slots[meaning] ?? [] where slot.hasDefault(defaultValue) {
            return slot
        }
        let (id, value) = follower.follow(key.name, evaluation())
        let slot = ObservedConfigsSlot(id: id, defaultValue: defaultValue, value: value)
        slots[meaning, default: []].append(slot)
        meanings[id] = meaning
        return slot
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension ObservedConfigs: ConfigFollowerTarget {
    /// Hands `value` to its slot, and releases the slot when nothing observes it any more. A value of a
    /// slot released already reaches no slot.
    func receive(_ value: any Sendable, slot id: UInt64) {
        guard let meaning = meanings[id], let index = slots[meaning]?.firstIndex(where: { $0.id == id }),
            let slot = slots[meaning]?[index], !slot.take(value)
        else { return }
        follower.unfollow(id)
        meanings[id] = nil
        slots[meaning]?.remove(at: index)
        if slots[meaning]?.isEmpty == true { slots[meaning] = nil }
    }
}
#endif

#if canImport(SwiftUI)
public import SwiftUI

/// A SwiftUI property wrapper over ``ObservedConfig``: the current value of a typed key, which
/// re-renders the view when it changes.
///
/// ```swift
/// @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
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
