/// The `theme` JSON config, decoded as an app would.
struct DemoTheme: Decodable, Equatable, Sendable, CustomStringConvertible {
    var primaryColor: String
    var cornerRadius: Double

    static let fallback = DemoTheme(primaryColor: "gray", cornerRadius: 0)

    var description: String { "{primaryColor: \(primaryColor), cornerRadius: \(cornerRadius.formatted)}" }
}

extension Double {
    /// The number without a trailing `.0`: `8` for 8.0, `0.15` for 0.15.
    var formatted: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
