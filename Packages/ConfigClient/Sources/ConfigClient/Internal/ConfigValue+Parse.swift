public import ConfigModel

extension ConfigValue {
    /// Parses served text into `value`, which it leaves alone when the text does not read as this type.
    ///
    /// Inlinable, so that a read inlined into the app parses with code made for the app's type: the
    /// SDK's code, made for every type, looks up the type `Self?` at run time on each parse (about a
    /// sixth of a read, benchmark 1).
    /// - Returns: Whether the text parsed.
    @inlinable
    static func parse(_ text: String, into value: inout Self) -> Bool {
        guard let parsed = Self(configValue: text) else { return false }
        value = parsed
        return true
    }
}
