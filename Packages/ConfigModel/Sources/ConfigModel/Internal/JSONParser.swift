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

    private let bytes: [UInt8]
    private let maximumDepth: Int
    private var position = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses the whole input as one value surrounded by optional whitespace.
    mutating func parseDocument() throws(JSONParsingError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected text after the value") }
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
                position += 1
                skipWhitespace()
                if isObject, peek() == UInt8(ascii: "}") {
                    position += 1
                    value = .object([:])
                } else if !isObject, peek() == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    var container = OpenContainer(isObject: isObject)
                    if isObject { container.pendingKey = try parseMemberKey() }
                    stack.append(container)
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectWord("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectWord("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectWord("null")
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
                    position += 1
                    if stack[top].isObject { stack[top].pendingKey = try parseMemberKey() }
                    break
                }
                guard peek() == closer else {
                    throw error(
                        stack[top].isObject ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array"
                    )
                }
                position += 1
                let closed = stack.removeLast()
                value = closed.isObject ? .object(closed.members) : .array(closed.elements)
            }
        }
    }

    /// Parses `"key" :` and leaves the position at the member's value.
    private mutating func parseMemberKey() throws(JSONParsingError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string as an object key") }
        let key = try parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
        position += 1
        return key
    }

    private mutating func parseString() throws(JSONParsingError) -> String {
        position += 1  // the opening quote
        let start = position
        // Fast path: no escapes, so the text is a slice of the input.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: bytes[start..<position - 1], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("unescaped control character in a string") }
            position += 1
        }
        var utf8 = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                try appendEscape(to: &utf8)
            case ..<0x20:
                throw error("unescaped control character in a string")
            default:
                utf8.append(byte)
                position += 1
            }
        }
        throw error("unterminated string")
    }

    /// Decodes the escape after a backslash, including a `\uXXXX\uXXXX` surrogate pair.
    private mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONParsingError) {
        guard let byte = peek() else { throw error("unterminated string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHexUnit()
            let scalarValue: UInt32
            switch unit {
            case 0xD800...0xDBFF:
                guard peek() == UInt8(ascii: "\\"), peek(offset: 1) == UInt8(ascii: "u") else {
                    throw error("high surrogate escape without a low surrogate after it")
                }
                position += 2
                let low = try parseHexUnit()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("high surrogate escape followed by something other than a low surrogate")
                }
                scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00...0xDFFF:
                throw error("low surrogate escape without a high surrogate before it")
            default:
                scalarValue = unit
            }
            // Surrogates were combined or refused above, so only valid scalars reach this point.
            guard let scalar = Unicode.Scalar(scalarValue) else { throw error("invalid unicode escape") }
            utf8.append(contentsOf: scalar.utf8)
        default:
            position -= 1
            throw error("invalid escape in a string")
        }
    }

    private mutating func parseHexUnit() throws(JSONParsingError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hex digits after \\u")
            }
            unit = unit << 4 | UInt32(digit)
            position += 1
        }
        return unit
    }

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func parseNumber() throws(JSONParsingError) -> JSONValue {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        if peek() == UInt8(ascii: "0") {
            position += 1
        } else {
            guard skipDigits() > 0 else { throw error("expected a digit") }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard skipDigits() > 0 else { throw error("expected a digit after the decimal point") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else {
            position = start
            throw error("number too large to be represented")
        }
        return .double(double)
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position - start
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONParsingError) {
        let count = word.utf8CodeUnitCount
        let matches =
            position + count <= bytes.count
            && (0..<count).allSatisfy { bytes[position + $0] == word.utf8Start[$0] }
        guard matches else { throw error("expected a value") }
        position += count
    }

    private mutating func skipWhitespace() {
        while let byte = peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        {
            position += 1
        }
    }

    private func peek(offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private func error(_ reason: String) -> JSONParsingError {
        JSONParsingError(offset: position, reason: reason)
    }
}
