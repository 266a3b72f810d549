import Foundation
import Testing

@_spi(Internal) @testable import ConfigModel

@Suite("Contexts", .timeLimit(.minutes(1)))
struct ConfigDirectorContextTests {
    // MARK: Kinds

    @Test(
        "accept a kind of 1 to 64 lowercase letters, digits, '-' and '_'",
        arguments: [
            "user", "tenant", "a", "0", "-", "_", "device-type_2", String(repeating: "a", count: 64),
            "abcdefghijklmnopqrstuvwxyz0123456789-_",
        ])
    func validKinds(kind: String) {
        #expect(ConfigDirectorContext.isValidKind(kind))
        #expect(ConfigDirectorContext(kind: kind).hasValidKind)
    }

    @Test(
        "refuse an empty kind, a kind over 64 characters and any other character",
        arguments: [
            "", String(repeating: "a", count: 65), "User", "USER", "a.b", "a b", " user", "user ", "a/b", "a:b", "é",
            "ü",
            "user\n", "a+b", "😀", "ａ",
        ])
    func invalidKinds(kind: String) {
        #expect(!ConfigDirectorContext.isValidKind(kind))
        #expect(!ConfigDirectorContext(kind: kind).hasValidKind)
    }

    @Test("are values: a change to a copy leaves the original alone, and equal fields are equal and hash alike")
    func valueSemantics() {
        let original = ConfigDirectorContext(id: "u1", kind: "tenant", name: "Ada", traits: ["plan": "pro"])
        var copy = original
        copy.traits?["plan"] = "free"
        copy.name = nil
        copy.isAnonymous = true
        #expect(original.traits == ["plan": "pro"])
        #expect(original.name == "Ada")
        #expect(original.isAnonymous == nil)
        #expect(copy.traits == ["plan": "free"])
        #expect(copy.name == nil)
        #expect(copy.isAnonymous == true)
        #expect(copy.id == "u1" && copy.kind == "tenant")
        #expect(copy != original)

        let same = ConfigDirectorContext(id: "u1", kind: "tenant", name: "Ada", traits: ["plan": "pro"])
        #expect(same == original)
        #expect(Set([same, original]).count == 1)
        var changedBack = copy
        changedBack.traits = ["plan": "pro"]
        changedBack.name = "Ada"
        changedBack.isAnonymous = nil
        #expect(changedBack == original)
        #expect(changedBack.hashValue == original.hashValue)
    }

    @Test("treat a missing kind as a valid user kind")
    func missingKind() {
        let context = ConfigDirectorContext(id: "user-123")
        #expect(context.kind == nil)
        #expect(context.hasValidKind)
        #expect(context.effectiveKind == "user")
        #expect(ConfigDirectorContext.defaultKind == "user")
        #expect(ConfigDirectorContext(kind: "tenant").effectiveKind == "tenant")
    }

    // MARK: Initializers

    @Test("are created as the reference page writes them")
    func initializers() {
        let user = ConfigDirectorContext(id: "12345", name: "Example User", traits: ["region": "North America"])
        #expect(user.id == "12345")
        #expect(user.name == "Example User")
        #expect(user.traits == ["region": .string("North America")])
        #expect(user.isAnonymous == nil)

        let signedOut = ConfigDirectorContext(isAnonymous: true)
        #expect(signedOut.isAnonymous == true)
        #expect(signedOut.id == nil && signedOut.kind == nil && signedOut.name == nil && signedOut.traits == nil)
    }

    @Test("keep every call of the official initializer without a kind compiling")
    func initializerWithoutKind() {
        let traits: [String: ConfigDirectorContext.TraitValue]? = ["plan": "pro"]
        let isAnonymous: Bool? = false
        let context = ConfigDirectorContext(id: "u", name: "Ada", traits: traits, isAnonymous: isAnonymous)
        #expect(context.kind == nil && context.traits == traits && context.isAnonymous == false)
    }

    @Test("take traits written as literals of every kind")
    func traitLiterals() {
        let context = ConfigDirectorContext(
            id: "user-123",
            traits: [
                "plan": "pro", "seats": 12, "ratio": 0.75, "beta": true, "manager": nil,
                "regions": ["us-east", "eu-west"], "limits": ["daily": 100, "burst": 2.5],
            ]
        )
        #expect(context.traits?["plan"] == .string("pro"))
        #expect(context.traits?["seats"] == .int(12))
        #expect(context.traits?["ratio"] == .double(0.75))
        #expect(context.traits?["beta"] == .bool(true))
        #expect(context.traits?["manager"] == .null)
        #expect(context.traits?["regions"] == .array([.string("us-east"), .string("eu-west")]))
        #expect(context.traits?["limits"] == .dictionary(["daily": .int(100), "burst": .double(2.5)]))
        let duplicate: ConfigDirectorContext.TraitValue = ["k": 1, "k": "last"]
        #expect(duplicate == .dictionary(["k": .string("last")]))
    }

    @Test("trait values describe themselves with a dictionary's keys sorted")
    func traitDescription() {
        let value: ConfigDirectorContext.TraitValue = ["zeta": 1, "alpha": ["b": true, "a": nil], "mid": [2.5, "x"]]
        #expect(value.description == #"{"alpha":{"a":null,"b":true},"mid":[2.5,"x"],"zeta":1}"#)
        #expect(String(describing: ConfigDirectorContext.TraitValue.string("s")) == #""s""#)
    }

    // MARK: Wire form

    @Test("encode every field with its wire name")
    func encodesEveryField() throws {
        let context = ConfigDirectorContext(
            id: "user-123",
            kind: "tenant",
            name: "Ada",
            traits: ["plan": "pro"],
            isAnonymous: true
        )
        #expect(
            try Self.wireText(context)
                == #"{"anonymous":true,"id":"user-123","kind":"tenant","name":"Ada","traits":{"plan":"pro"}}"#
        )
    }

    @Test("encode only the fields that are set")
    func omitsNilFields() throws {
        #expect(try Self.wireText(ConfigDirectorContext()) == "{}")
        #expect(try Self.wireText(ConfigDirectorContext(id: "u1")) == #"{"id":"u1"}"#)
        #expect(try Self.wireText(ConfigDirectorContext(isAnonymous: false)) == #"{"anonymous":false}"#)
        #expect(try Self.wireText(ConfigDirectorContext(traits: [:])) == #"{"traits":{}}"#)
    }

    @Test("encode traits of every kind, with a non-finite double as null")
    func encodesTraits() throws {
        let context = ConfigDirectorContext(
            traits: [
                "s": "x", "i": -3, "d": 2.5, "b": false, "n": nil, "a": [1, "two", [true]], "o": ["k": ["z": 1]],
                "inf": .double(.infinity), "nan": .double(.nan), "nested": [.double(-.infinity), ["x": .double(.nan)]],
            ]
        )
        let data = try JSONEncoder().encode(context)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let traits = try #require(object["traits"] as? NSDictionary)
        let expected: NSDictionary = [
            "s": "x", "i": -3, "d": 2.5, "b": false, "n": NSNull(), "a": [1, "two", [true]], "o": ["k": ["z": 1]],
            "inf": NSNull(), "nan": NSNull(), "nested": [NSNull(), ["x": NSNull()]],
        ]
        #expect(traits == expected)
    }

    @Test("decode from the wire form, every field optional")
    func decodes() throws {
        let text = #"{"id":"u","kind":"tenant","name":"Ada","traits":{"seats":12,"beta":true},"anonymous":true}"#
        let context = try JSONDecoder().decode(ConfigDirectorContext.self, from: Data(text.utf8))
        #expect(
            context
                == ConfigDirectorContext(
                    id: "u",
                    kind: "tenant",
                    name: "Ada",
                    traits: ["seats": 12, "beta": true],
                    isAnonymous: true
                )
        )
        #expect(try JSONDecoder().decode(ConfigDirectorContext.self, from: Data("{}".utf8)) == ConfigDirectorContext())
    }

    @Test(
        "survive an encode and decode round trip",
        arguments: [
            ConfigDirectorContext(),
            ConfigDirectorContext(isAnonymous: true),
            ConfigDirectorContext(id: "user-123", name: "Ada Lovelace", traits: ["plan": "pro", "seats": 12]),
            ConfigDirectorContext(
                id: "acme",
                kind: "tenant",
                traits: ["regions": ["us", "eu"], "limits": ["rate": 0.5], "manager": nil, "beta": false]
            ),
        ])
    func roundTrip(context: ConfigDirectorContext) throws {
        let data = try JSONEncoder().encode(context)
        #expect(try JSONDecoder().decode(ConfigDirectorContext.self, from: data) == context)
    }

    // MARK: Equality

    @Test("are equal and hash alike exactly when every field is equal")
    func hashable() {
        let context = ConfigDirectorContext(id: "u", kind: "tenant", name: "Ada", traits: ["plan": "pro"])
        let same = ConfigDirectorContext(id: "u", kind: "tenant", name: "Ada", traits: ["plan": "pro"])
        #expect(context == same)
        #expect(context.hashValue == same.hashValue)
        var variants = [ConfigDirectorContext](repeating: context, count: 6)
        variants[0].id = "v"
        variants[1].kind = nil
        #expect(ConfigDirectorContext(id: "u") != ConfigDirectorContext(id: "u", isAnonymous: false))
        variants[2].name = "Bob"
        variants[3].traits = ["plan": "free"]
        variants[4].isAnonymous = true
        variants[5].traits = ["plan": "pro", "seats": 1]
        for variant in variants { #expect(variant != context) }
        #expect(Set(variants + [context, same]).count == 7)
        // An integer trait and a double trait of the same number are different values.
        #expect(ConfigDirectorContext(traits: ["n": 2]) != ConfigDirectorContext(traits: ["n": 2.0]))
    }

    private static func wireText(_ context: ConfigDirectorContext) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(context), as: UTF8.self)
    }
}
