/// An error thrown by ``JSONValue/init(parsing:)`` when text is not one well-formed JSON value.
@_spi(Internal) public struct JSONParsingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offset, in UTF-8 bytes from the start of the text, where the problem was found.
    public var offset: Int
    /// What is wrong at ``offset``, such as `expected ':' after an object key`.
    public var reason: String

    /// Creates a parsing error.
    /// - Parameters:
    ///   - offset: The UTF-8 byte offset of the problem.
    ///   - reason: What is wrong there.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// The reason and where it was found, such as `Invalid JSON at byte 7: expected a value`.
    public var description: String { "Invalid JSON at byte \(offset): \(reason)" }
}
