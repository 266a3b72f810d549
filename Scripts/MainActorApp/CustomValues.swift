import ConfigDirector
import Foundation

// The reference page, "Custom value types", as README spells it in a target isolated to the main actor:
// `nonisolated`, and `@retroactive` (an app conforms a type of Foundation to a protocol of the SDK).
// swift-format-ignore: AvoidRetroactiveConformances
nonisolated extension Locale: @retroactive ConfigValue {
    public static var configValueKind: ConfigValueKind { .string }

    public init?(configValue: String) {
        self.init(identifier: configValue)
    }
}
