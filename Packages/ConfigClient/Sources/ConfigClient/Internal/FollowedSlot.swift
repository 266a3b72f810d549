/// A slot of an ``ObservedConfigs``, whatever the type of its value.
@MainActor
protocol FollowedSlot: AnyObject {
    /// The follower's id of the slot.
    var id: UInt64 { get }

    /// Takes `value`, the newest value of the slot's key.
    /// - Returns: `false` when the value changed and nothing read the slot since its previous change:
    ///   nothing observes it any more, the value is not taken, and the slot is to be released.
    func take(_ value: any Sendable) -> Bool
}
