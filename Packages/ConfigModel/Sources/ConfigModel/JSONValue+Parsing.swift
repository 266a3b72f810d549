extension ConfigDirectorContext.TraitValue {
    /// The deepest nesting of arrays and objects that ``init(parsing:)`` accepts.
    ///
    /// The bound keeps hostile input from exhausting memory or the stack of code that walks the value.
    static let maximumParsingDepth = JSONCursor.maximumDepth

    /// Parses one JSON value (RFC 8259) from text, exactly, with the reader that decodes config sets.
    ///
    /// A number written without a fraction or exponent that fits in `Int` becomes ``integer(_:)``
    /// (`-0` is the integer `0`); every other number, such as `2.5`, `2e0` or an integer too large for
    /// `Int`, becomes ``double(_:)``. A repeated object key keeps its last value. Whitespace may surround
    /// the value; anything else after it is an error.
    ///
    /// ```swift
    /// let theme = try JSONValue(parsing: ##"{"primary":"#101010","radius":8}"##)
    /// // .object(["primary": .string("#101010"), "radius": .integer(8)])
    /// ```
    ///
    /// - Parameter text: The JSON text.
    /// - Throws: ``JSONParsingError`` when the text is not exactly one JSON value, when a number is
    ///   not finite as a `Double`, when a string holds an unpaired surrogate escape, or when arrays and
    ///   objects nest deeper than ``maximumParsingDepth``.
    @_spi(Internal) public init(parsing text: String) throws {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(JSONParsingError) -> JSONValue in
                var cursor = JSONCursor(bytes: bytes)
                return try JSONParser.parseDocument(&cursor)
            }
        }
        self = try result.get()
    }
}
