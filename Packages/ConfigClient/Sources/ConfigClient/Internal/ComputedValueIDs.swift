/// One lock stripe's value ids (PROTOCOL §7) of the configs served without one, each for one revision
/// of its slot's config: a detail read of such a config hashes its value once per stripe and revision,
/// not on every read. A new revision makes a slot's id stale, and the next read computes it again.
struct ComputedValueIDs {
    private struct Computed {
        let revision: UInt64
        let valueID: String
    }

    private var slots = SlotPages<Computed>()

    /// The value id this stripe computed of `revision` of the config in `slot`, if it kept one.
    mutating func find(slot: Int, revision: UInt64) -> String? {
        slots.update(slot) { computed in computed?.revision == revision ? computed?.valueID : nil } ?? nil
    }

    /// Keeps `valueID`, computed of `revision` of the config in `slot`, in place of the slot's previous one.
    mutating func keep(_ valueID: String, slot: Int, revision: UInt64) {
        _ = slots.store(Computed(revision: revision, valueID: valueID), in: slot)
    }
}
