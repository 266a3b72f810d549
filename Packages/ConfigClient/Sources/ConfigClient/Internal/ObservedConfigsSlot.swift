#if canImport(Observation)
internal import Observation

/// One key followed by an ``ObservedConfigs``: its current value, observed on its own, with what tells
/// the key apart from another key of the same name and type (its default value), and whether anything
/// read it since its value last changed.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor
@Observable
final class ObservedConfigsSlot<Value: Equatable & Sendable> {
    /// The value, as a view reads it.
    private(set) var value: Value

    /// The follower's id of this slot.
    @ObservationIgnored let id: UInt64

    /// The default value of the key followed.
    @ObservationIgnored private let defaultValue: Value

    /// Whether the value was read since it last changed: a slot unread since then has no observer left,
    /// since an observation ends at the first change it is told of.
    @ObservationIgnored private var isReadSinceChange = true

    init(id: UInt64, defaultValue: Value, value: Value) {
        self.id = id
        self.defaultValue = defaultValue
        self.value = value
    }

    /// The value, read by a view: the slot is read since its last change.
    func read() -> Value {
        isReadSinceChange = true
        return value
    }

    /// Whether this slot follows the key of default value `other`. A default that is not equal to
    /// itself (`Double.nan`) matches one that is not either, so that reading such a key again finds its slot.
    func hasDefault(_ other: Value) -> Bool {
        defaultValue == other || (defaultValue != defaultValue && other != other)
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension ObservedConfigsSlot: FollowedSlot {
    func take(_ newValue: any Sendable) -> Bool {
        guard let newValue = newValue as? Value, newValue != value else { return true }
        guard isReadSinceChange else { return false }
        isReadSinceChange = false
        value = newValue
        return true
    }
}
#endif
