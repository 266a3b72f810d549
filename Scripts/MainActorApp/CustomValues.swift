import ConfigDirector
import Foundation

// The reference page, "Custom value types".
nonisolated extension Locale: @retroactive ConfigValue {
    public static var configValueKind: ConfigValueKind { .string }

    public init?(configValue: String) {
        self.init(identifier: configValue)
    }
}
