public import Foundation

extension Bool: ConfigValue {
    /// Booleans read boolean, string and custom configs.
    public static var configValueKind: ConfigValueKind { .boolean }

    /// Reads `true` or `false` in any letter case; anything else, spaces included, is `nil`.
    public init?(configValue: String) {
        guard let value = ConfigValueParsing.boolean(configValue) else { return nil }
        self = value
    }
}

extension String: ConfigValue {
    /// Strings read string, enum, url, custom and json configs.
    public static var configValueKind: ConfigValueKind { .string }

    /// Takes the text as it is.
    public init?(configValue: String) { self = configValue }

    /// The string itself.
    public var configValueText: String { self }
}

extension Int: ConfigValue {
    /// Integers read integer, float, enum, string and custom configs.
    public static var configValueKind: ConfigValueKind { .number }

    /// Reads a decimal integer, or a decimal number truncated toward zero when it fits.
    public init?(configValue: String) {
        guard let value = ConfigValueParsing.integer(configValue, as: Int.self) else { return nil }
        self = value
    }
}

extension Int64: ConfigValue {
    /// 64-bit integers read integer, float, enum, string and custom configs.
    public static var configValueKind: ConfigValueKind { .number }

    /// Reads a decimal integer, or a decimal number truncated toward zero when it fits.
    public init?(configValue: String) {
        guard let value = ConfigValueParsing.integer(configValue, as: Int64.self) else { return nil }
        self = value
    }
}

extension Double: ConfigValue {
    /// Doubles read integer, float, enum, string and custom configs.
    public static var configValueKind: ConfigValueKind { .number }

    /// Reads a finite decimal number with optional sign, fraction and exponent.
    public init?(configValue: String) {
        guard let value = ConfigValueParsing.double(configValue) else { return nil }
        self = value
    }
}

extension Float: ConfigValue {
    /// Floats read integer, float, enum, string and custom configs.
    public static var configValueKind: ConfigValueKind { .number }

    /// Reads a decimal number that is finite as a `Float`.
    public init?(configValue: String) {
        guard let value = ConfigValueParsing.double(configValue), Float(value).isFinite else { return nil }
        self = Float(value)
    }
}

extension URL: ConfigValue {
    /// URLs read string, enum, url, custom and json configs.
    public static var configValueKind: ConfigValueKind { .string }

    /// Reads an absolute or relative URL; text that is not a valid URL as written is `nil`.
    ///
    /// Text that `URL(string:)` accepts only by percent-encoding it (newer Foundation releases encode
    /// spaces and other invalid characters) is refused too, so every platform reads the same texts.
    /// - Parameter configValue: The served text.
    public init?(configValue: String) {
        guard !configValue.isEmpty, let url = URL(string: configValue), url.absoluteString == configValue else {
            return nil
        }
        self = url
    }

    /// The URL's absolute string.
    public var configValueText: String { absoluteString }
}
