extension ConfigDirectorContext.TraitValue {
    /// The value as compact JSON text with object keys in sorted order.
    ///
    /// The same value always gives the same text, which is what value ids are computed from.
    /// A non-finite double is written as `null`.
    @_spi(Internal) public var jsonText: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// The text a config's value written as a JSON value is served as, the wire carrying text (PROTOCOL §3):
    /// a string is itself, `null` is no value, and any other value (`true`, `42`, `2.5`, an array, an
    /// object) is its compact JSON text, ``jsonText``.
    ///
    /// It is the one rule of the files that write values as JSON values: a bundled values file
    /// (`ConfigSet(bundledJSONBytes:)`) and the emulator's configs file.
    @_spi(Internal) public var wireText: String? {
        switch self {
        case .null: nil
        case .string(let text): text
        default: jsonText
        }
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .int(let value): text += String(value)
        case .double(let value) where value.isFinite: text += value.description
        case .double: text += "null"
        case .string(let value): Self.writeString(value, to: &text)
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .dictionary(let members):
            text += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                Self.writeString(key, to: &text)
                text += ":"
                members[key]!.write(to: &text)
            }
            text += "}"
        }
    }

    private static func writeString(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
