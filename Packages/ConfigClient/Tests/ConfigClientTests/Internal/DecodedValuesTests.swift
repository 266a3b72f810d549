@_spi(Internal) import ConfigModel
import Testing

@testable @_spi(Internal) import ConfigClient

/// `DecodedValues`: a decode is found for its slot, revision and type alone; a slot keeps one decode
/// per type, up to `typesPerSlot` types; a default is recognised by its bytes.
@Suite("DecodedValues", .timeLimit(.minutes(1)))
struct DecodedValuesTests {
    private struct First: Sendable { var text: String }
    private struct Second: Sendable { var number: Int }
    private struct Third: Sendable { var flag: Bool }
    private struct Fourth: Sendable { var value: Double }
    private struct Fifth: Sendable { var other: [Int] }

    private static func kept<Value: Sendable>(_ value: Value, revision: UInt64 = 1) -> DecodedValues.Kept {
        DecodedValues.Kept(
            revision: revision, decoded: value, reason: .foundMatch, defaultValue: value, defaultText: "text")
    }

    private static func finds<Value>(
        _ values: inout DecodedValues, _ type: Value.Type, slot: Int = 0, revision: UInt64 = 1
    )
        -> Bool
    {
        values.find(slot: slot, revision: revision, requestedType: ObjectIdentifier(type)) != nil
    }

    @Test("a decode is found for its slot, revision and type only")
    func findsByslotRevisionAndType() throws {
        var values = DecodedValues()
        #expect(!Self.finds(&values, First.self))
        values.keep(Self.kept(First(text: "a")), in: 300)
        let kept = values.find(slot: 300, revision: 1, requestedType: ObjectIdentifier(First.self))
        let found = try #require(kept)
        #expect((found.decoded as? First)?.text == "a")
        #expect(!Self.finds(&values, First.self, slot: 300, revision: 2))
        #expect(!Self.finds(&values, First.self, slot: 299))
        #expect(!Self.finds(&values, Second.self, slot: 300))
    }

    @Test("a new decode of a type replaces that type's, and a fifth type replaces the oldest")
    func replacement() {
        var values = DecodedValues()
        values.keep(Self.kept(First(text: "a")), in: 0)
        values.keep(Self.kept(First(text: "b"), revision: 2), in: 0)
        #expect(!Self.finds(&values, First.self, revision: 1))
        #expect(Self.finds(&values, First.self, revision: 2))
        values.keep(Self.kept(Second(number: 1)), in: 0)
        values.keep(Self.kept(Third(flag: true)), in: 0)
        values.keep(Self.kept(Fourth(value: 1)), in: 0)
        #expect(DecodedValues.typesPerSlot == 4)
        values.keep(Self.kept(Fifth(other: [])), in: 0)
        #expect(!Self.finds(&values, First.self, revision: 2))
        #expect(Self.finds(&values, Second.self))
        #expect(Self.finds(&values, Fifth.self))
    }

    @Test("a default is recognised by its bytes: the same value is, another is not")
    func defaultsByBytes() {
        let long = String(repeating: "long text, stored out of line ", count: 4)
        let kept = Self.kept(First(text: long))
        #expect(kept.holdsDefault(First(text: long)))
        #expect(!kept.holdsDefault(First(text: "short")))
        #expect(!kept.holdsDefault(Second(number: 1)))
        let number = Self.kept(Second(number: 42))
        #expect(number.holdsDefault(Second(number: 42)))
        #expect(!number.holdsDefault(Second(number: 43)))
    }
}
