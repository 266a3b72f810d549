/// A position in UTF-8 JSON text, with the byte-level pieces of JSON shared by ``JSONParser`` and
/// ``ConfigSetDecoder``: whitespace, literals, strict strings with their escapes, and strict numbers.
///
/// The bytes are borrowed: a cursor must not outlive the buffer it was made with. Every read goes
/// through ``peek(offset:)`` or checks ``position`` against the count first.
struct JSONCursor {
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

    /// Parses a string strictly (RFC 8259) from its opening quote, and moves past its closing quote.
    ///
    /// Escapes must be valid and surrogate escapes paired; unescaped control characters are refused.
    /// Other bytes are taken as UTF-8 without validation: callers that need valid UTF-8 check it.
    mutating func parseString() throws(JSONParsingError) -> String {
        position += 1  // the opening quote
        let start = position
        // Fast path: no escapes, so the text is a slice of the input.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position - 1]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("unescaped control character in a string") }
            position += 1
        }
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
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

    /// The text of `range` of the input.
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
