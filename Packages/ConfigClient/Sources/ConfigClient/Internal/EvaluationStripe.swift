@_spi(Internal) internal import ConfigModel

/// What one stripe of the client's lock holds besides the lock: the side tables, by slot of the
/// ``EvaluationTable``, that evaluations on that stripe read and write while they hold it.
struct EvaluationStripe {
    /// The evaluations counted for telemetry and not handed to the collector yet.
    var telemetry = TelemetryCache()
    /// The JSON documents decoded, by slot and type.
    var decoded = DecodedValues()
    /// The value ids computed of configs served without one, by slot.
    var valueIDs = ComputedValueIDs()
}

/// One lock stripe's decoded JSON configs, so that reading an unchanged JSON config decodes it once
/// per stripe rather than on every read (a SwiftUI body reads its JSON configs on every frame).
///
/// Each slot keeps the decodes of up to ``typesPerSlot`` types (reads of one key as different types
/// each keep theirs; a fifth type replaces the oldest), each for one revision of the slot's config: a
/// new revision makes them stale, and the next read of each type decodes again and replaces its own.
/// A stripe is read by the threads given it, so that concurrent reads of a key on different threads
/// usually use different stripes, and each stripe decodes the document once.
struct DecodedValues {
    /// One type's decode of one revision of a slot's config, and the default it was last read with.
    /// A class, so that a read takes it with one retain (of a stripe only its threads use).
    final class Kept {
        let revision: UInt64
        let requestedType: ObjectIdentifier
        /// The decoded document, `nil` when it did not decode (or the config is not JSON), and why.
        let decoded: (any Sendable)?
        let reason: EvaluationReason
        /// The default of the last read, its bytes and its telemetry text: a read with the same
        /// default (see ``holdsDefault(_:)``) keys telemetry with this text instead of describing the
        /// default again.
        let defaultValue: any Sendable
        let defaultBytes: [UInt8]
        /// `nil` when the read counted no telemetry, and did not describe its default.
        let defaultText: String?

        init(
            revision: UInt64,
            requestedType: ObjectIdentifier,
            decoded: (any Sendable)?,
            reason: EvaluationReason,
            defaultValue: any Sendable,
            defaultBytes: [UInt8],
            defaultText: String?
        ) {
            self.revision = revision
            self.requestedType = requestedType
            self.decoded = decoded
            self.reason = reason
            self.defaultValue = defaultValue
            self.defaultBytes = defaultBytes
            self.defaultText = defaultText
        }
    }

    /// How many types a slot keeps decodes of.
    static let typesPerSlot = 4

    private var slots = SlotPages<[Kept]>()

    /// The decode of `revision` of the config in `slot` as the type `requestedType`, if this stripe kept one.
    mutating func find(slot: Int, revision: UInt64, requestedType: ObjectIdentifier) -> Kept? {
        slots.update(slot) { kept in
            kept?.first { $0.revision == revision && $0.requestedType == requestedType }
        } ?? nil
    }

    /// Keeps `kept` for its type in `slot`, in place of that type's previous decode.
    mutating func keep(_ kept: Kept, in slot: Int) {
        let updated = slots.update(slot) { list -> Bool in
            list = Self.adding(kept, to: list ?? [])
            return true
        }
        if updated == nil { _ = slots.store([kept], in: slot) }
    }

    private static func adding(_ kept: Kept, to list: [Kept]) -> [Kept] {
        var list = list.filter { $0.requestedType != kept.requestedType }
        if list.count >= typesPerSlot { list.removeFirst() }
        list.append(kept)
        return list
    }
}

extension DecodedValues.Kept {
    /// Makes what a read keeps of its decode.
    convenience init<Value: Sendable>(
        revision: UInt64,
        decoded: Value?,
        reason: EvaluationReason,
        defaultValue: Value,
        defaultText: String?
    ) {
        self.init(
            revision: revision,
            requestedType: ObjectIdentifier(Value.self),
            decoded: decoded,
            reason: reason,
            defaultValue: defaultValue,
            defaultBytes: withUnsafeBytes(of: defaultValue) { Array($0) },
            defaultText: defaultText
        )
    }

    /// Whether `value` is the default this decode was last read with, compared by its bytes.
    ///
    /// The same bytes are the same value here: ``defaultValue`` holds the objects that the kept
    /// default refers to, so that no other object can have their addresses, and a value type's
    /// storage is not changed while it is shared. Bytes that differ (padding, another copy of a long
    /// string) only make the read describe its default again. `Equatable` is not asked of JSON types.
    func holdsDefault<Value>(_ value: Value) -> Bool {
        withUnsafeBytes(of: value) { bytes in
            defaultBytes.withUnsafeBytes { kept in
                guard kept.count == bytes.count else { return false }
                // A word at a time: a byte-by-byte comparison cost more than the rest of the read.
                var offset = 0
                while offset + 8 <= bytes.count {
                    let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    guard word == kept.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                    offset += 8
                }
                while offset < bytes.count {
                    guard bytes[offset] == kept[offset] else { return false }
                    offset += 1
                }
                return true
            }
        }
    }
}
