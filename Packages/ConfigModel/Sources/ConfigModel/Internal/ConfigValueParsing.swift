/// The parse rules of PROTOCOL §8, shared by the built-in ``ConfigValue`` conformances and, for its
/// `Int64` reads, the OpenFeature provider.
@_spi(Internal) public enum ConfigValueParsing {
    /// `true` or `false`, in any letter case, and nothing else.
    static func boolean(_ text: String) -> Bool? {
        // The service's spellings first, compared whole: two small strings compare as their bits, where
        // the loop below walks the text's bytes (about a tenth of an evaluation).
        if text == "true" { return true }
        if text == "false" { return false }
        let utf8 = text.utf8
        if matchesIgnoringCase(utf8, "true") { return true }
        if matchesIgnoringCase(utf8, "false") { return false }
        return nil
    }

    /// Whether `utf8` spells the lowercase ASCII `word` in any letter case. A plain loop: this runs
    /// on every evaluation of a boolean.
    private static func matchesIgnoringCase(_ utf8: String.UTF8View, _ word: StaticString) -> Bool {
        guard utf8.count == word.utf8CodeUnitCount else { return false }
        var letter = word.utf8Start
        for byte in utf8 {
            guard byte | 0x20 == letter.pointee else { return false }
            letter += 1
        }
        return true
    }

    /// A finite decimal number: optional sign, digits with an optional fraction, optional exponent.
    /// Hex, `inf`, `nan`, spaces and suffixes are refused.
    static func double(_ text: String) -> Double? {
        guard isDecimalNumber(text), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// An integer parse first; otherwise a decimal number truncated toward zero, when it fits.
    ///
    /// The truncation works on the number's digits rather than on a `Double`, so that a number just
    /// outside the integer's range (`-9223372036854775809`, which rounds to `Int.min` as a double) is
    /// refused instead of rounded into range.
    public static func integer<Integer: FixedWidthInteger>(_ text: String, as type: Integer.Type) -> Integer? {
        if let value = Integer(text, radix: 10) { return value }
        guard isDecimalNumber(text) else { return nil }
        return truncatedDecimal(Array(text.utf8), as: Integer.self)
    }

    /// The integer part of a number that ``isDecimalNumber(_:)`` accepted, when it fits in `Integer`.
    private static func truncatedDecimal<Integer: FixedWidthInteger>(_ text: [UInt8], as type: Integer.Type) -> Integer?
    {
        var number = text[...]
        let isNegative = number.first == UInt8(ascii: "-")
        if number.first == UInt8(ascii: "-") || number.first == UInt8(ascii: "+") { number = number.dropFirst() }

        var exponent = 0
        if let exponentStart = number.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            let exponentText = String(decoding: number[(exponentStart + 1)...], as: UTF8.self)
            // An exponent too large for Int is clamped: the result is then 0 or too large either way.
            exponent = Int(exponentText) ?? (exponentText.hasPrefix("-") ? -(Int.max / 4) : Int.max / 4)
            number = number[..<exponentStart]
        }
        let point = number.firstIndex(of: UInt8(ascii: "."))
        let integerDigits = number[..<(point ?? number.endIndex)]
        let fractionDigits = point.map { number[($0 + 1)...] } ?? []
        var digits = Array(integerDigits) + Array(fractionDigits)
        // How many of the digits are before the decimal point once the exponent is applied.
        var pointPosition = integerDigits.count + exponent
        let leadingZeros = digits.prefix { $0 == UInt8(ascii: "0") }.count
        digits.removeFirst(leadingZeros)
        pointPosition -= leadingZeros

        guard !digits.isEmpty, pointPosition > 0 else { return 0 }
        // No fixed-width integer in Swift has more than 39 decimal digits (UInt128).
        guard pointPosition <= 40 else { return nil }
        var integerText = isNegative ? [UInt8(ascii: "-")] : []
        integerText += digits.prefix(pointPosition)
        integerText += repeatElement(UInt8(ascii: "0"), count: max(0, pointPosition - digits.count))
        return Integer(String(decoding: integerText, as: UTF8.self), radix: 10)
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
