/// The parser behind ``JSONValue/init(parsing:)``.
///
/// It keeps its own stack of open containers instead of recursing, so that nesting depth is bounded
/// by ``maximumDepth`` and never by the thread's stack size.
struct JSONParser {
    /// An array or object that has been opened and not yet closed.
    private struct OpenContainer {
        var isObject: Bool
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        /// The key of the member whose value is being parsed; objects only.
        var pendingKey = ""
    }

    private var cursor: JSONCursor
    private let maximumDepth: Int

    /// Creates a parser of `bytes`, which must outlive it.
    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        cursor = JSONCursor(bytes: bytes)
        self.maximumDepth = maximumDepth
    }

    /// Parses the whole input as one value surrounded by optional whitespace.
    mutating func parseDocument() throws(JSONParsingError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        guard cursor.isAtEnd else { throw error("unexpected text after the value") }
        return value
    }

    private mutating func parseValue() throws(JSONParsingError) -> JSONValue {
        var stack: [OpenContainer] = []
        while true {
            // Parse a value, or open a container and go round again for its first value.
            skipWhitespace()
            guard let first = peek() else { throw error("expected a value, found the end of the text") }
            var value: JSONValue
            switch first {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = first == UInt8(ascii: "{")
                guard stack.count < maximumDepth else {
                    throw error("arrays and objects nest deeper than \(maximumDepth) levels")
                }
                cursor.position += 1
                skipWhitespace()
                if isObject, peek() == UInt8(ascii: "}") {
                    cursor.position += 1
                    value = .dictionary([:])
                } else if !isObject, peek() == UInt8(ascii: "]") {
                    cursor.position += 1
                    value = .array([])
                } else {
                    var container = OpenContainer(isObject: isObject)
                    if isObject { container.pendingKey = try parseMemberKey() }
                    stack.append(container)
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try cursor.parseString())
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
                value = try parseNumber()
            default:
                throw error("expected a value")
            }

            // Add the value to the innermost open container, closing containers that end here.
            while true {
                guard !stack.isEmpty else { return value }
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].members[stack[top].pendingKey] = value
                } else {
                    stack[top].elements.append(value)
                }
                skipWhitespace()
                let closer = stack[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if peek() == UInt8(ascii: ",") {
                    cursor.position += 1
                    if stack[top].isObject { stack[top].pendingKey = try parseMemberKey() }
                    break
                }
                guard peek() == closer else {
                    throw error(
                        stack[top].isObject ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array"
                    )
                }
                cursor.position += 1
                let closed = stack.removeLast()
                value = closed.isObject ? .dictionary(closed.members) : .array(closed.elements)
            }
        }
    }

    /// Parses `"key" :` and leaves the position at the member's value.
    private mutating func parseMemberKey() throws(JSONParsingError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string as an object key") }
        let key = try cursor.parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
        cursor.position += 1
        return key
    }

    /// Parses a number with ``JSONCursor/scanNumber()``: an `Int` when it has no fraction or exponent
    /// and fits, else a finite `Double`.
    private mutating func parseNumber() throws(JSONParsingError) -> JSONValue {
        let start = cursor.position
        let isInteger = try cursor.scanNumber()
        let text = cursor.text(start..<cursor.position)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else {
            cursor.position = start
            throw error("number too large to be represented")
        }
        return .double(double)
    }

    private mutating func skipWhitespace() { cursor.skipWhitespace() }

    private func peek() -> UInt8? { cursor.peek() }

    private func error(_ reason: String) -> JSONParsingError { cursor.error(reason) }
}
