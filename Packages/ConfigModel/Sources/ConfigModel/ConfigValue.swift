/// A type that a config can be read as with `value(for:default:)`.
///
/// `Bool`, `String`, `Int` and `Double` conform. Conform your own types (a `URL`, a `Float`, an enum of
/// yours) by declaring the kind of config they read and building them from the served text:
///
/// ```swift
/// extension Locale: ConfigValue {
///     public static var configValueKind: ConfigValueKind { .string }
///     public init?(configValue: String) { self.init(identifier: configValue) }
/// }
/// ```
public protocol ConfigValue: Sendable, Equatable {
    /// The kind of config this type reads, which decides the config types it can be read from.
    static var configValueKind: ConfigValueKind { get }

    /// Creates a value from the text the server served, or returns `nil` when the text cannot be
    /// read, which evaluates the config to the caller's default value.
    /// - Parameter configValue: The served text.
    init?(configValue: String)

    /// The value written as config text, as telemetry reports a default value; defaults to its description.
    var configValueText: String { get }
}

extension ConfigValue {
    /// The value written as config text: its description.
    public var configValueText: String { String(describing: self) }
}
