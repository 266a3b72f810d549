extension Bool: ConfigValue {
    /// The kind booleans read, ``ConfigValueKind/boolean``: boolean, string and custom configs.
    public static var configValueKind: ConfigValueKind { .boolean }

    /// Creates a boolean from `true` or `false` in any letter case; anything else, spaces included, is `nil`.
    /// - Parameter configValue: The served text.
    public init?(configValue: String) {
        guard let value = ConfigValueParsing.boolean(configValue) else { return nil }
        self = value
    }

    /// `true` or `false`, as its description, without the cost of `String(describing:)`.
    public var configValueText: String { self ? "true" : "false" }
}

extension String: ConfigValue {
    /// The kind strings read, ``ConfigValueKind/string``: string, enum, url, custom and json configs.
    public static var configValueKind: ConfigValueKind { .string }

    /// Creates a string from the served text, as it is.
    /// - Parameter configValue: The served text.
    public init?(configValue: String) { self = configValue }

    /// The config text of a string: the string itself.
    public var configValueText: String { self }
}

extension Int: ConfigValue {
    /// The kind integers read, ``ConfigValueKind/number``: integer, float, enum, string and custom configs.
    public static var configValueKind: ConfigValueKind { .number }

    /// Creates an integer from a decimal integer, or from a decimal number truncated toward zero when
    /// the result fits; `2.5` gives `2`, and `9223372036854775808` does not fit.
    /// - Parameter configValue: The served text.
    public init?(configValue: String) {
        guard let value = ConfigValueParsing.integer(configValue, as: Int.self) else { return nil }
        self = value
    }

    /// The decimal digits, as its description.
    public var configValueText: String { String(self) }
}

extension Double: ConfigValue {
    /// The kind doubles read, ``ConfigValueKind/number``: integer, float, enum, string and custom configs.
    public static var configValueKind: ConfigValueKind { .number }

    /// Creates a double from a finite decimal number with optional sign, fraction and exponent.
    ///
    /// Hexadecimal, `inf`, `nan`, surrounding spaces and suffixes are `nil`.
    /// - Parameter configValue: The served text.
    public init?(configValue: String) {
        guard let value = ConfigValueParsing.double(configValue) else { return nil }
        self = value
    }

    /// Its description.
    public var configValueText: String { description }
}
