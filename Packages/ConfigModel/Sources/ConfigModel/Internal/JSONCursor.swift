/// A position in UTF-8 JSON text, and the one reader of JSON (RFC 8259) in ConfigModel: whitespace,
/// literals, strings with their escapes (valid UTF-8 only), numbers, the punctuation of objects, and
/// values skipped without being kept. ``JSONParser`` builds values with it and ``ConfigSetDecoder``
/// reads config sets with it, so both accept exactly the same text: RFC 8259's grammar, with no
/// trailing comma, no loose number and no raw control character. A payload's leading UTF-8 byte order
/// mark may be ignored (``skipByteOrderMark()``, as RFC 8259 §8.1 allows). Arrays and objects nest at
/// most ``maximumDepth`` deep.
///
/// The bytes are borrowed: a cursor must not outlive the buffer it was made with. Every read goes
/// through ``peek(offset:)`` or checks ``position`` against the count first.
struct JSONCursor {
    /// The deepest nesting of arrays and objects accepted; the outermost container is at depth 1.
    static let maximumDepth = 512

    /// A string token: its raw content when it needs no unescaping, or its decoded text.
    enum StringToken {
        case raw(Range<Int>)
        case decoded(String)
    }

    /// The text, borrowed for the cursor's lifetime.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    var position = 0

    /// Creates a cursor at the start of `bytes`.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= bytes.count }

    /// The byte `offset` bytes after the position, or `nil` past the end.
    func peek(offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    /// An error at the position.
    func error(_ reason: String) -> JSONParsingError {
        JSONParsingError(offset: position, reason: reason)
    }

    /// Moves past spaces, tabs, line feeds and carriage returns (RFC 8259's whitespace).
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    /// Moves past `word` (`true`, `false` or `null`), or throws when the text is not that word.
    mutating func expectWord(_ word: StaticString) throws(JSONParsingError) {
        let count = word.utf8CodeUnitCount
        let matches =
            position + count <= bytes.count
            && (0..<count).allSatisfy { bytes[position + $0] == word.utf8Start[$0] }
        guard matches else { throw error("expected a value") }
        position += count
    }

    /// Moves past a leading UTF-8 byte order mark, if there is one.
    mutating func skipByteOrderMark() {
        if position == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// Reads a string from its opening quote and moves past its closing quote. Escapes must be valid and
    /// surrogate escapes paired; raw control characters and invalid UTF-8 are refused.
    mutating func readStringToken() throws(JSONParsingError) -> StringToken {
        let quote = position
        var index = quote + 1
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                let range = quote + 1..<index
                guard isASCII || Self.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[range])) else {
                    throw JSONParsingError(offset: quote, reason: "a string that is not valid UTF-8")
                }
                return .raw(range)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        // Escapes, a control character or the end of the text.
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[quote + 1..<index]))
        position = index
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard utf8.allSatisfy({ $0 < 0x80 }) || utf8.withUnsafeBufferPointer(Self.isValidUTF8) else {
                    throw JSONParsingError(offset: quote, reason: "a string that is not valid UTF-8")
                }
                return .decoded(String(decoding: utf8, as: UTF8.self))
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

    /// Reads a string from its opening quote, as ``readStringToken()`` does, and returns its text.
    mutating func readString() throws(JSONParsingError) -> String {
        string(of: try readStringToken())
    }

    /// The text of a string token.
    func string(of token: StringToken) -> String {
        switch token {
        case .raw(let range): text(range)
        case .decoded(let text): text
        }
    }

    /// Whether a string token's text is `name`.
    func matches(_ token: StringToken, _ name: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        switch token {
        case .raw(let range): return UnsafeBufferPointer(rebasing: bytes[range]).elementsEqual(expected)
        case .decoded(let text): return text.utf8.elementsEqual(expected)
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, surrogates or scalars past U+10FFFF).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F:
                index += 1
                continue
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else { return false }
            for offset in 2..<max(length, 2) where !(0x80...0xBF).contains(bytes[index + offset]) { return false }
            index += length
        }
        return true
    }

    /// Decodes the escape after a backslash, including a surrogate pair written as two `\u` escapes.
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

    /// Moves past a number of the strict grammar
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    /// - Returns: Whether the number has neither a fraction nor an exponent.
    mutating func scanNumber() throws(JSONParsingError) -> Bool {
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
        return isInteger
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position - start
    }

    // MARK: - Structure

    /// Moves past `{` or `[` and whitespace; returns whether a member or element follows (rather than the
    /// closing bracket, which it moves past).
    mutating func open() -> Bool {
        let closer = bytes[position] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        position += 1
        skipWhitespace()
        guard peek() == closer else { return true }
        position += 1
        return false
    }

    /// Moves past what follows a member's value or an element: `,` and whitespace before the next one,
    /// or the closing bracket. Returns whether another member or element follows.
    mutating func next(inObject isObject: Bool) throws(JSONParsingError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace()
            return true
        case isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"):
            position += 1
            return false
        default:
            throw error(isObject ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
        }
    }

    /// Reads an object key and the colon after it, and moves to the member's value.
    mutating func readMemberKey() throws(JSONParsingError) -> StringToken {
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string as an object key") }
        let key = try readStringToken()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
        position += 1
        skipWhitespace()
        return key
    }

    /// Moves past one value, at any depth, without keeping it, checking it as a read value is checked.
    /// It keeps a stack of its open containers instead of recursing.
    /// - Parameter depth: How many containers hold the value.
    mutating func skipValue(depth: Int) throws(JSONParsingError) {
        var openObjects: [Bool] = []  // for each open container, whether it is an object
        while true {
            skipWhitespace()
            guard let byte = peek() else { throw error("expected a value, found the end of the text") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth + openObjects.count < Self.maximumDepth else {
                    throw error("arrays and objects nest deeper than \(Self.maximumDepth) levels")
                }
                let isObject = byte == UInt8(ascii: "{")
                if open() {
                    openObjects.append(isObject)
                    if isObject { _ = try readMemberKey() }
                    continue
                }
            case UInt8(ascii: "\""): _ = try readStringToken()
            case UInt8(ascii: "t"): try expectWord("true")
            case UInt8(ascii: "f"): try expectWord("false")
            case UInt8(ascii: "n"): try expectWord("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try scanNumber()
            default: throw error("expected a value")
            }
            // After a value: close the containers that end here, or go on to the next member or element.
            while let isObject = openObjects.last {
                if try next(inObject: isObject) {
                    if isObject { _ = try readMemberKey() }
                    break
                }
                openObjects.removeLast()
            }
            if openObjects.isEmpty { return }
        }
    }

    /// The text of `range` of the input.
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
