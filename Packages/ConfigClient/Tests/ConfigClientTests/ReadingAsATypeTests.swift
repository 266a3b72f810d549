@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import Foundation
import TestSupport
import Testing

/// PROTOCOL §8: which config types each requested kind reads, and the order of checks, through the
/// client's reads: a client holds one config `key` of the type and value given, and a hook records
/// what each read gave.
@Suite("Reading a served config as a type", .timeLimit(.minutes(1)))
struct ReadingAsATypeTests {
    /// What a read gave: the value served, or `nil` when the default was returned, and why.
    struct Read<Value: Equatable>: Equatable {
        var value: Value?
        var reason: EvaluationReason
    }

    /// Records the result of each evaluation.
    private struct ResultHook: ConfigDirectorHook {
        let results = Protected([ConfigEvaluation]())

        func afterEvaluation(
            _ evaluation: EvaluationHookContext, result: ConfigEvaluation, data: ConfigDirectorHookData
        ) throws {
            results.withLock { $0.append(result) }
        }
    }

    /// Reads `key` with `read` from a ready client that holds a config of `type` with `value`.
    private static func reading<Value: Equatable>(
        _ type: ConfigType,
        _ value: String?,
        _ read: (ConfigDirectorClient) -> Value
    ) async throws -> Read<Value> {
        let hook = ResultHook()
        let fixture = try ClientFixture(
            initial: ConfigSet(kind: .full, configs: ["key": ConfigState(key: "key", type: type, value: value)]),
            hooks: [hook])
        defer { fixture.client.close() }
        await fixture.client.initialize()
        let value = read(fixture.client)
        let result = try #require(hook.results.withLock { $0.last })
        return Read(value: result.isDefaultValue ? nil : value, reason: result.reason)
    }

    /// `value(for:default:)` of a config of `type` holding `value`, as `Value`.
    static func read<Value: ConfigValue & Equatable & DefaultReadable>(
        _ type: ConfigType, _ value: String?, as: Value.Type
    )
        async throws -> Read<Value>
    {
        try await reading(type, value) { client in client.value(for: "key", default: Value.someDefault) }
    }

    /// `value(for:as:default:)` of a config of `type` holding `value`, decoded as `Value`.
    static func readJSON<Value: Decodable & Sendable & Equatable & DefaultReadable>(
        _ type: ConfigType, _ value: String?, as: Value.Type
    ) async throws -> Read<Value> {
        try await reading(type, value) { client in client.value(for: "key", as: Value.self, default: Value.someDefault)
        }
    }

    struct Theme: Decodable, Equatable, Sendable, DefaultReadable {
        static let someDefault = Theme(primary: "", cornerRadius: 0)
        let primary: String
        let cornerRadius: Double
    }

    /// Every requested type of §8, with a served text that parses as it.
    enum Requested: String, CaseIterable, CustomTestStringConvertible {
        case bool = "Bool"
        case string = "String"
        case int = "Int"
        case double = "Double"
        case int64 = "Int64"
        case float = "Float"
        case url = "URL"
        case decodable = "Decodable"

        var testDescription: String { rawValue }

        var parseableText: String {
            switch self {
            case .bool: "true"
            case .string: "some text"
            case .int, .int64: "42"
            case .double, .float: "2.5"
            case .url: "https://example.com/path"
            case .decodable: ##"{"primary":"#101010","cornerRadius":8}"##
            }
        }

        /// The config types §8 lists as readable.
        var readableTypes: Set<ConfigType> {
            switch self {
            case .bool: [.boolean, .string, .custom]
            case .string, .url: [.string, .enum, .url, .custom, .json]
            case .int, .double, .int64, .float: [.integer, .float, .enum, .string, .custom]
            case .decodable: [.json]
            }
        }

        func reason(type: ConfigType, value: String?) async throws -> EvaluationReason {
            switch self {
            case .bool: try await ReadingAsATypeTests.read(type, value, as: Bool.self).reason
            case .string: try await ReadingAsATypeTests.read(type, value, as: String.self).reason
            case .int: try await ReadingAsATypeTests.read(type, value, as: Int.self).reason
            case .double: try await ReadingAsATypeTests.read(type, value, as: Double.self).reason
            case .int64: try await ReadingAsATypeTests.read(type, value, as: Int64.self).reason
            case .float: try await ReadingAsATypeTests.read(type, value, as: Float.self).reason
            case .url: try await ReadingAsATypeTests.read(type, value, as: URL.self).reason
            case .decodable: try await ReadingAsATypeTests.readJSON(type, value, as: Theme.self).reason
            }
        }
    }

    @Test("reads exactly the config types of the protocol's table", arguments: Requested.allCases, ConfigType.allCases)
    func readableTypes(requested: Requested, type: ConfigType) async throws {
        let expected: EvaluationReason = requested.readableTypes.contains(type) ? .foundMatch : .typeMismatch
        #expect(try await requested.reason(type: type, value: requested.parseableText) == expected)
    }

    @Test("reports a null or empty value as missing before anything else", arguments: Requested.allCases)
    func missingValueFirst(requested: Requested) async throws {
        for type in ConfigType.allCases {
            #expect(try await requested.reason(type: type, value: nil) == .valueMissing, "\(type) with null")
            #expect(try await requested.reason(type: type, value: "") == .valueMissing, "\(type) with \"\"")
        }
    }

    @Test("reports a type mismatch before a value that does not parse")
    func typeBeforeParse() async throws {
        #expect(try await Self.read(.integer, "not a bool", as: Bool.self).reason == .typeMismatch)
        #expect(try await Self.read(.boolean, "not a number", as: Int.self).reason == .typeMismatch)
        #expect(try await Self.read(.url, "not a number", as: Double.self).reason == .typeMismatch)
        let theme = try await Self.readJSON(.string, "not json", as: Theme.self)
        #expect(theme.reason == .typeMismatch)
    }

    @Test("gives the kind's invalid reason for a readable type whose value does not parse")
    func invalidReasons() async throws {
        #expect(try await Self.read(.string, "yes", as: Bool.self).reason == .invalidBoolean)
        #expect(try await Self.read(.string, "ten", as: Int.self).reason == .invalidNumber)
        #expect(try await Self.read(.float, "nan", as: Double.self).reason == .invalidNumber)
        #expect(try await Self.read(.url, "not a url", as: URL.self).reason == .typeMismatch)
        let theme = try await Self.readJSON(.json, #"{"primary":1}"#, as: Theme.self)
        #expect(theme.reason == .invalidJSON)
    }

    @Test("returns the value with foundMatch when it parses")
    func foundMatch() async throws {
        #expect(
            try await Self.read(.boolean, "TRUE", as: Bool.self) == .init(value: true, reason: .foundMatch)
        )
        #expect(try await Self.read(.float, "2.5", as: Int.self) == .init(value: 2, reason: .foundMatch))
        #expect(
            try await Self.read(.json, "[1]", as: String.self) == .init(value: "[1]", reason: .foundMatch))
    }

    // MARK: Booleans

    @Test(
        "reads true and false in any letter case",
        arguments: [
            ("true", true), ("TRUE", true), ("True", true), ("tRuE", true), ("false", false), ("FALSE", false),
            ("False", false),
        ])
    func booleans(text: String, expected: Bool) async throws {
        #expect(Bool(configValue: text) == expected)
        #expect(try await Self.read(.boolean, text, as: Bool.self).value == expected)
    }

    @Test(
        "refuses any other text as a boolean",
        arguments: [
            " true", "true ", "\ttrue", "yes", "no", "1", "0", "t", "f", "truee", "ture", "fals", "on", "TRUE\n",
            "trùe",
        ])
    func invalidBooleans(text: String) async throws {
        #expect(Bool(configValue: text) == nil)
        #expect(
            try await Self.read(.boolean, text, as: Bool.self)
                == .init(value: nil, reason: .invalidBoolean))
    }

    // MARK: Numbers

    @Test(
        "reads integers, and truncates decimal numbers toward zero when they fit",
        arguments: [
            ("42", 42), ("+5", 5), ("-17", -17), ("-0", 0), ("007", 7), ("1e3", 1000), ("1E+3", 1000), ("2.5", 2),
            ("-2.5", -2), ("2.999", 2), ("-0.5", 0), ("1.", 1), (".5", 0), ("12e-1", 1),
            ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("9223372036854775807.9", Int.max),
            ("-9223372036854775808.9", Int.min), ("92233720368547758.07e2", Int.max), ("0e99999999999999999999", 0),
            ("1e-99999999999999999999", 0), ("-0.0e5", 0), ("000.000", 0),
        ])
    func integers(text: String, expected: Int) async throws {
        #expect(Int(configValue: text) == expected)
        #expect(
            try await Self.read(.integer, text, as: Int.self)
                == .init(value: expected, reason: .foundMatch))
    }

    @Test(
        "refuses as an integer what is not a decimal number or does not fit",
        arguments: [
            "9223372036854775808", "-9223372036854775809", "-9.223372036854775809e18", "1e99999999999999999999", "1e19",
            "1e400", "0x10", "0X10", "0b1", "inf", "-inf",
            "Infinity", "nan", "NaN", " 1", "1 ", "1_000", "1,000", "12px", "1e", "e3", ".", "-", "+", "--1", "+-1",
            "1.2.3", "١٢",
        ])
    func invalidIntegers(text: String) async throws {
        #expect(Int(configValue: text) == nil)
        #expect(
            try await Self.read(.string, text, as: Int.self) == .init(value: nil, reason: .invalidNumber))
    }

    @Test("truncates a decimal number exactly as truncating its double value does, away from the limits")
    func truncationMatchesDouble() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            let number =
                Double.random(in: -1e15...1e15, using: &generator)
                / pow(10, Double(Int.random(in: 0...12, using: &generator)))
            let text = String(number)
            #expect(Int(configValue: text) == Int(number.rounded(.towardZero)), "\(text)")
        }
    }

    @Test(
        "reads finite decimal numbers as doubles",
        arguments: [
            ("2.5", 2.5), ("+1.5", 1.5), ("-1.5", -1.5), ("1e3", 1000), ("1E-2", 0.01), ("42", 42), (".5", 0.5),
            ("1.", 1), ("9223372036854775808", 9_223_372_036_854_775_808), ("1e308", 1e308),
        ])
    func doubles(text: String, expected: Double) async throws {
        #expect(Double(configValue: text) == expected)
        #expect(
            try await Self.read(.float, text, as: Double.self)
                == .init(value: expected, reason: .foundMatch))
    }

    @Test("keeps the sign of a negative zero")
    func negativeZero() throws {
        let value = try #require(Double(configValue: "-0"))
        #expect(value == 0 && value.sign == .minus)
    }

    @Test(
        "refuses as a double what is not a finite decimal number",
        arguments: [
            "inf", "-inf", "+inf", "Infinity", "infinity", "nan", "NaN", "-nan", "0x10", "0x1p3", "1e309", "-1e309",
            " 1", "1 ", "1f", "1.5d", "1_000", "1,5", "e", "1e+", "..5", "",
        ])
    func invalidDoubles(text: String) {
        #expect(Double(configValue: text) == nil)
    }

    // MARK: Strings

    @Test("reads the text as it is as a string", arguments: ["text", " spaced ", "TRUE", "42", #"{"a":1}"#, "é😀"])
    func strings(text: String) async throws {
        #expect(
            try await Self.read(.custom, text, as: String.self) == .init(value: text, reason: .foundMatch))
    }

    // MARK: Decodable

    @Test("decodes a JSON config into a Decodable type")
    func decodable() async throws {
        let text = ##"{"primary":"#101010","cornerRadius":8}"##
        let resolution = try await Self.readJSON(.json, text, as: Theme.self)
        #expect(resolution == .init(value: Theme(primary: "#101010", cornerRadius: 8), reason: .foundMatch))
        let document = try await Self.readJSON(.json, text, as: JSONValue.self)
        #expect(document.value == ["primary": "#101010", "cornerRadius": 8])
    }

    @Test(
        "reports a document that does not decode as invalid JSON",
        arguments: [
            "not json", ##"{"primary":"#101010"}"##, ##"{"primary":1,"cornerRadius":8}"##, "[]", "null",
            ##"{"primary":"#1""##,
        ])
    func invalidJSON(text: String) async throws {
        let resolution = try await Self.readJSON(.json, text, as: Theme.self)
        #expect(resolution == .init(value: nil, reason: .invalidJSON))
    }

    // MARK: Custom types

    /// A number type that refuses values outside 0...100.
    struct Percentage: ConfigValue, Equatable {
        static var configValueKind: ConfigValueKind { .number }
        let value: Int
        init?(configValue: String) {
            guard let value = Int(configValue), (0...100).contains(value) else { return nil }
            self.value = value
        }
    }

    /// A boolean type that reads only `on` and `off`.
    struct Switch: ConfigValue, Equatable {
        static var configValueKind: ConfigValueKind { .boolean }
        let isOn: Bool
        init?(configValue: String) {
            switch configValue {
            case "on": isOn = true
            case "off": isOn = false
            default: return nil
            }
        }
    }

    /// A string type that reads only lowercase text.
    struct Slug: ConfigValue, Equatable {
        static var configValueKind: ConfigValueKind { .string }
        let text: String
        init?(configValue: String) {
            guard configValue == configValue.lowercased() else { return nil }
            text = configValue
        }
    }

    @Test("reads a custom type through its initializer and kind")
    func customTypes() async throws {
        #expect(try await Self.read(.integer, "50", as: Percentage.self).value?.value == 50)
        #expect(try await Self.read(.custom, "on", as: Switch.self).value?.isOn == true)
        #expect(try await Self.read(.enum, "dark-mode", as: Slug.self).value?.text == "dark-mode")
        #expect(try await Self.read(.boolean, "50", as: Percentage.self).reason == .typeMismatch)
    }

    @Test("gives the kind's invalid reason when a custom type's initializer returns nil")
    func customTypeReturningNil() async throws {
        #expect(
            try await Self.read(.integer, "150", as: Percentage.self)
                == .init(value: nil, reason: .invalidNumber))
        #expect(
            try await Self.read(.boolean, "true", as: Switch.self)
                == .init(value: nil, reason: .invalidBoolean))
        #expect(
            try await Self.read(.string, "Upper", as: Slug.self)
                == .init(value: nil, reason: .typeMismatch))
        #expect(ConfigValueKind.number.invalidValueReason == .invalidNumber)
        #expect(ConfigValueKind.boolean.invalidValueReason == .invalidBoolean)
        #expect(ConfigValueKind.string.invalidValueReason == .typeMismatch)
    }

    // MARK: Config text

    @Test("write the built-in values back as config text")
    func configValueText() {
        #expect(true.configValueText == "true")
        #expect(42.configValueText == "42")
        #expect(2.5.configValueText == "2.5")
        #expect("text".configValueText == "text")
    }
}

/// A type whose reads in these tests are given a default: any value, since a read that returns the
/// default is told apart by its evaluation.
protocol DefaultReadable {
    static var someDefault: Self { get }
}

extension Bool: DefaultReadable { static var someDefault: Bool { false } }
extension String: DefaultReadable { static var someDefault: String { "" } }
extension Int: DefaultReadable { static var someDefault: Int { 0 } }
extension Int64: DefaultReadable { static var someDefault: Int64 { 0 } }
extension Double: DefaultReadable { static var someDefault: Double { 0 } }
extension Float: DefaultReadable { static var someDefault: Float { 0 } }
extension URL: DefaultReadable { static var someDefault: URL { URL(fileURLWithPath: "/") } }
extension JSONValue: DefaultReadable { static var someDefault: JSONValue { .null } }
extension ReadingAsATypeTests.Percentage: DefaultReadable {
    static var someDefault: Self { Self(configValue: "0")! }
}
extension ReadingAsATypeTests.Switch: DefaultReadable { static var someDefault: Self { Self(configValue: "off")! } }
extension ReadingAsATypeTests.Slug: DefaultReadable { static var someDefault: Self { Self(configValue: "slug")! } }
