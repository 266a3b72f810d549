public import ConfigModel
public import Foundation

// Conformances an app writes for types the SDK does not conform: they compile because the SDK
// conforms only Bool, String, Int and Double, and ReadingAsATypeTests reads configs through them.

extension Int64: ConfigValue {
    public static var configValueKind: ConfigValueKind { .number }
    public init?(configValue: String) {
        guard let value = Double(configValue), let exact = Int64(exactly: value.rounded(.towardZero)) else {
            return nil
        }
        self = Int64(configValue) ?? exact
    }
}

extension Float: ConfigValue {
    public static var configValueKind: ConfigValueKind { .number }
    public init?(configValue: String) {
        guard let value = Double(configValue), Float(value).isFinite else { return nil }
        self = Float(value)
    }
}

extension URL: ConfigValue {
    public static var configValueKind: ConfigValueKind { .string }
    public init?(configValue: String) {
        guard !configValue.isEmpty, let url = URL(string: configValue), url.absoluteString == configValue else {
            return nil
        }
        self = url
    }
}
