/// Builds ``JSONValue``s with ``JSONCursor``: behind ``JSONValue/init(parsing:)`` and the members of a
/// document that embeds a config set (``ConfigSetDecoder/decodeDocument(setMember:)``).
///
/// It keeps its own stack of open containers instead of recursing, so that nesting depth is bounded
/// by ``JSONCursor/maximumDepth`` and never by the thread's stack size. Of a repeated key, the last
/// value is kept.
enum JSONParser {
    /// An array or object that has been opened and not yet closed.
    private struct OpenContainer {
        var isObject: Bool
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        /// The key of the member whose value is being parsed; objects only.
        var pendingKey = ""
    }

    /// Parses the whole input as one value surrounded by optional whitespace.
    static func parseDocument(_ cursor: inout JSONCursor) throws(JSONParsingError) -> JSONValue {
        let value = try parseValue(&cursor, depth: 0)
        cursor.skipWhitespace()
        guard cursor.isAtEnd else { throw cursor.error("unexpected text after the value") }
        return value
    }

    /// Parses the value at the cursor.
    /// - Parameter depth: How many containers hold the value.
    static func parseValue(_ cursor: inout JSONCursor, depth: Int) throws(JSONParsingError) -> JSONValue {
        var stack: [OpenContainer] = []
        while true {
            // Parse a value, or open a container and go round again for its first value.
            cursor.skipWhitespace()
            guard let first = cursor.peek() else { throw cursor.error("expected a value, found the end of the text") }
            var value: JSONValue
            switch first {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = first == UInt8(ascii: "{")
                guard depth + stack.count < JSONCursor.maximumDepth else {
                    throw cursor.error("arrays and objects nest deeper than \(JSONCursor.maximumDepth) levels")
                }
                guard cursor.open() else {
                    value = isObject ? .dictionary([:]) : .array([])
                    break
                }
                var container = OpenContainer(isObject: isObject)
                if isObject { container.pendingKey = cursor.string(of: try cursor.readMemberKey()) }
                stack.append(container)
                continue
            case UInt8(ascii: "\""):
                value = .string(try cursor.readString())
            case UInt8(ascii: "t"):
                try cursor.expectWord("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try cursor.expectWord("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try cursor.expectWord("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber(&cursor)
            default:
                throw cursor.error("expected a value")
            }

            // Add the value to the innermost open container, closing containers that end here.
            while true {
                guard !stack.isEmpty else { return value }
                let top = stack.count - 1
                let isObject = stack[top].isObject
                if isObject {
                    stack[top].members[stack[top].pendingKey] = value
                } else {
                    stack[top].elements.append(value)
                }
                if try cursor.next(inObject: isObject) {
                    if isObject { stack[top].pendingKey = cursor.string(of: try cursor.readMemberKey()) }
                    break
                }
                let closed = stack.removeLast()
                value = closed.isObject ? .dictionary(closed.members) : .array(closed.elements)
            }
        }
    }

    /// Parses a number with ``JSONCursor/scanNumber()``: an `Int` when it has no fraction or exponent
    /// and fits, else a finite `Double`.
    private static func parseNumber(_ cursor: inout JSONCursor) throws(JSONParsingError) -> JSONValue {
        let start = cursor.position
        let isInteger = try cursor.scanNumber()
        let text = cursor.text(start..<cursor.position)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else {
            cursor.position = start
            throw cursor.error("number too large to be represented")
        }
        return .double(double)
    }
}
