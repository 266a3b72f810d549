/// The parse rules of PROTOCOL §8, shared by the built-in ``ConfigValue`` conformances.
enum ConfigValueParsing {
    /// `true` or `false`, in any letter case, and nothing else.
    static func boolean(_ text: String) -> Bool? {
        var utf8 = text.utf8
        if matchesIgnoringCase(&utf8, "true") { return true }
        if matchesIgnoringCase(&utf8, "false") { return false }
        return nil
    }

    private static func matchesIgnoringCase(_ utf8: inout String.UTF8View, _ word: StaticString) -> Bool {
        guard utf8.count == word.utf8CodeUnitCount else { return false }
        let letters = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        return zip(utf8, letters).allSatisfy { byte, letter in byte | 0x20 == letter }
    }

    /// A finite decimal number: optional sign, digits with an optional fraction, optional exponent.
    /// Hex, `inf`, `nan`, spaces and suffixes are refused.
    static func double(_ text: String) -> Double? {
        guard isDecimalNumber(text), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// An integer parse first; otherwise a decimal number truncated toward zero, when it fits.
    static func integer<Integer: FixedWidthInteger>(_ text: String, as type: Integer.Type) -> Integer? {
        if let value = Integer(text, radix: 10) { return value }
        guard let value = double(text) else { return nil }
        return Integer(exactly: value.rounded(.towardZero))
    }

    private static func isDecimalNumber(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        var byte = bytes.next()
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { byte = bytes.next() }
        var digits = 0
        while let current = byte, isDigit(current) {
            digits += 1
            byte = bytes.next()
        }
        if byte == UInt8(ascii: ".") {
            byte = bytes.next()
            while let current = byte, isDigit(current) {
                digits += 1
                byte = bytes.next()
            }
        }
        guard digits > 0 else { return false }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            byte = bytes.next()
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { byte = bytes.next() }
            var exponentDigits = 0
            while let current = byte, isDigit(current) {
                exponentDigits += 1
                byte = bytes.next()
            }
            guard exponentDigits > 0 else { return false }
        }
        return byte == nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
