@_spi(Internal) internal import ConfigModel

/// An `Int64` as OpenFeature's `getIntegerValue` reads it, through the SDK's number rules (PROTOCOL §8):
/// exact 64-bit decimal text first, else a finite number truncated toward zero when it fits, else the
/// caller's default. It stays internal so that `Int64` gains no public `ConfigValue` conformance.
struct OpenFeatureInteger: ConfigValue {
    /// The number read.
    let value: Int64

    init(_ value: Int64) {
        self.value = value
    }

    static var configValueKind: ConfigValueKind { .number }

    init?(configValue: String) {
        guard let value = ConfigValueParsing.integer(configValue, as: Int64.self) else { return nil }
        self.value = value
    }

    var configValueText: String { String(value) }
}
