internal import Foundation

/// The single-pass decoder behind ``ConfigSet/init(jsonBytes:)``: it reads the bytes once, builds the
/// configs as it goes, and keeps no representation of the document.
///
/// It accepts what `JSONDecoder` (swift-foundation) accepts and decodes what `ConfigSet`'s `Decodable`
/// conformance decodes from it, including that decoder's quirks:
/// - structure is checked strictly, except that a comma may trail the last member or element;
/// - a number is any run of `0-9 . e E + -` that starts with `-` or a digit, checked only when read;
/// - every string is checked, read or skipped, and one that is not valid JSON text (a bad escape, an
///   unpaired surrogate, a raw control character, invalid UTF-8) fails the whole set: this is where the
///   decoder is stricter than `JSONDecoder`, which checks a string only when it reads it and so would
///   drop one config's value without a word (issue 18);
/// - of repeated keys in an object, the first wins;
/// - arrays and objects nest at most ``maximumDepth`` deep, the outer object included.
///
/// Skipped values are walked with a bounded stack of their open containers, never by recursion.
struct ConfigSetDecoder {
    /// The deepest nesting accepted, as `JSONDecoder`'s: the set's object is at depth 1.
    static let maximumDepth = 512

    /// A string token: its raw content when it needs no unescaping, or its decoded text.
    private enum StringToken {
        case raw(Range<Int>)
        case decoded(String)
    }

    private var cursor: JSONCursor
    /// The depth of the set's object: 1 for a whole input, 2 for a member of the input's object.
    private var setDepth = 1

    /// Creates a decoder of `bytes`, which must outlive it.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        cursor = JSONCursor(bytes: bytes)
    }

    /// Decodes the whole input as one config set.
    mutating func decode() throws(JSONParsingError) -> ConfigSet {
        try openDocument()
        let set = try readSet()
        try closeDocument()
        return set
    }

    /// Decodes the config set that is the value of the member `name` of the object that is the whole
    /// input, as `JSONDecoder` decodes a `ConfigSet` property of a `Decodable` type: the input must be
    /// JSON, and the member's first occurrence must be an object.
    mutating func decode(member name: String) throws(JSONParsingError) -> ConfigSet {
        try openDocument()
        var set: ConfigSet?
        if try openObject() {
            repeat {
                let key = try readMemberKey()
                guard set == nil, key == name else {
                    try skipValue(parentDepth: 1)
                    continue
                }
                guard cursor.peek() == UInt8(ascii: "{") else { throw cursor.error("\(name) is not an object") }
                setDepth = 2
                set = try readSet()
            } while try nextMember()
        }
        try closeDocument()
        guard let set else { throw cursor.error("no member \(name) in the object") }
        return set
    }

    /// Moves past a byte order mark and whitespace to the `{` that starts the input.
    private mutating func openDocument() throws(JSONParsingError) {
        if cursor.bytes.count >= 3, cursor.bytes[0] == 0xEF, cursor.bytes[1] == 0xBB, cursor.bytes[2] == 0xBF {
            cursor.position = 3  // a UTF-8 byte order mark, which JSONDecoder skips too
        }
        cursor.skipWhitespace()
        guard cursor.peek() == UInt8(ascii: "{") else { throw cursor.error("expected an object") }
    }

    /// Checks that only whitespace follows the input's object.
    private mutating func closeDocument() throws(JSONParsingError) {
        cursor.skipWhitespace()
        guard cursor.isAtEnd else { throw cursor.error("unexpected text after the object") }
    }

    /// Reads a config set's object, from its `{`.
    private mutating func readSet() throws(JSONParsingError) -> ConfigSet {
        var set = ConfigSet(configs: [:])
        var seen: Set<TopField> = []
        guard try openObject() else { return set }
        repeat {
            let field = TopField(try readMemberKey())
            guard let field, seen.insert(field).inserted else {
                try skipValue(parentDepth: setDepth)
                continue
            }
            switch field {
            case .environmentID: set.environmentID = try readString(parentDepth: setDepth)
            case .projectID: set.projectID = try readString(parentDepth: setDepth)
            case .kind: set.kind = try readString(parentDepth: setDepth).flatMap(ConfigSet.Kind.init) ?? .full
            case .timestamp: set.timestamp = try readString(parentDepth: setDepth)
            case .configs: set.configs = try readConfigs()
            }
        } while try nextMember()
        return set
    }

    // MARK: - The set's fields

    private enum TopField: Hashable {
        case environmentID, projectID, kind, timestamp, configs

        init?(_ name: String) {
            switch name {
            case "environmentId": self = .environmentID
            case "projectId": self = .projectID
            case "kind": self = .kind
            case "timestamp": self = .timestamp
            case "configs": self = .configs
            default: return nil
            }
        }
    }

    private enum EntryField: UInt8 {
        case id = 1
        case key = 2
        case type = 4
        case value = 8
        case valueID = 16
    }

    /// Reads `configs`: `null` is no configs, an object is read entry by entry, anything else fails.
    private mutating func readConfigs() throws(JSONParsingError) -> [String: ConfigState] {
        if cursor.peek() == UInt8(ascii: "n") {
            try cursor.expectWord("null")
            return [:]
        }
        guard cursor.peek() == UInt8(ascii: "{") else { throw cursor.error("configs is not an object") }
        // Sized once: growing would hold the old and the new storage at once, the largest share of
        // the peak memory of decoding a large set.
        var configs: [String: ConfigState] = [:]
        configs.reserveCapacity(countMembers())
        var skippedKeys: Set<String> = []
        guard try openObject() else { return configs }
        repeat {
            guard cursor.peek() == UInt8(ascii: "\"") else { throw cursor.error("expected a string as an object key") }
            let key = string(of: try readStringToken())
            try expectColon()
            let state = try readEntry(named: key)
            // The first entry of a key wins, even one that is skipped.
            guard configs.index(forKey: key) == nil, skippedKeys.isEmpty || !skippedKeys.contains(key) else { continue }
            if let state {
                configs[key] = state
            } else {
                skippedKeys.insert(key)
            }
        } while try nextMember()
        return configs
    }

    /// Counts the members of the object that starts at the position, without moving: a quick look
    /// ahead (brackets, commas and strings only, in linear time) to size the configs dictionary once.
    /// It may count a repeated or skipped member, or a trailing comma, but never more than one member
    /// per five bytes.
    private func countMembers() -> Int {
        let bytes = cursor.bytes
        var index = cursor.position + 1
        var depth = 0
        var commas = 0
        var isEmpty = true
        scan: while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { break scan }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0 { commas += 1 }
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                index += 1
                continue scan
            default:
                break
            }
            isEmpty = false
            index += 1
        }
        return isEmpty ? 0 : min(commas + 1, (bytes.count - cursor.position) / 5)
    }

    /// Reads one entry of `configs`; `nil` when it is not an object.
    private mutating func readEntry(named name: String) throws(JSONParsingError) -> ConfigState? {
        guard cursor.peek() == UInt8(ascii: "{") else {
            try skipValue(parentDepth: setDepth + 1)
            return nil
        }
        var state = ConfigState(type: .custom, value: nil)
        var seen: UInt8 = 0
        if try openObject() {
            repeat {
                guard cursor.peek() == UInt8(ascii: "\"") else {
                    throw cursor.error("expected a string as an object key")
                }
                let token = try readStringToken()
                try expectColon()
                let field = entryField(token)
                guard let field, seen & field.rawValue == 0 else {
                    try skipValue(parentDepth: setDepth + 2)
                    continue
                }
                seen |= field.rawValue
                switch field {
                case .id: state.id = try readString(parentDepth: setDepth + 2)
                case .key: state.key = try readString(parentDepth: setDepth + 2, reusing: name)
                case .type: state.type = try readString(parentDepth: setDepth + 2).flatMap(ConfigType.init) ?? .custom
                case .value: state.value = try readValueText()
                case .valueID: state.valueID = try readString(parentDepth: setDepth + 2)
                }
            } while try nextMember()
        }
        return state
    }

    private func entryField(_ token: StringToken) -> EntryField? {
        if matches(token, "id") { return .id }
        if matches(token, "key") { return .key }
        if matches(token, "type") { return .type }
        if matches(token, "value") { return .value }
        if matches(token, "valueId") { return .valueID }
        return nil
    }

    // MARK: - Values

    /// Reads a value that is kept only when it is a string; any other value is skipped and is `nil`.
    /// - Parameter reusing: A string returned instead of a new one when the value has the same text.
    private mutating func readString(parentDepth: Int, reusing known: String? = nil) throws(JSONParsingError)
        -> String?
    {
        guard cursor.peek() == UInt8(ascii: "\"") else {
            try skipValue(parentDepth: parentDepth)
            return nil
        }
        let token = try readStringToken()
        if let known, case .raw(let range) = token,
            known.utf8.elementsEqual(UnsafeBufferPointer(rebasing: cursor.bytes[range]))
        {
            return known
        }
        return string(of: token)
    }

    /// Reads a config's value as `ConfigState`'s conformance does: a string, a boolean or a number as
    /// its text, and `nil` for anything else.
    private mutating func readValueText() throws(JSONParsingError) -> String? {
        switch cursor.peek() ?? 0 {
        case UInt8(ascii: "\""):
            return string(of: try readStringToken())
        case UInt8(ascii: "t"):
            try cursor.expectWord("true")
            return "true"
        case UInt8(ascii: "f"):
            try cursor.expectWord("false")
            return "false"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return numberText(skipNumberToken())
        default:
            try skipValue(parentDepth: setDepth + 2)
            return nil
        }
    }

    /// The text `ConfigState`'s conformance makes of a number token: an `Int`'s text when it reads as
    /// one, else a `Double`'s `description`, else `nil`.
    private func numberText(_ range: Range<Int>) -> String? {
        var number = JSONCursor(bytes: UnsafeBufferPointer(rebasing: cursor.bytes[range]))
        if let isInteger = try? number.scanNumber(), number.isAtEnd {
            let text = cursor.text(range)
            if isInteger, let integer = Int(text) { return String(integer) }
            // A finite number with a fraction cannot read as an `Int`: it is a `Double`.
            if !isInteger, let double = Double(text), double.isFinite, double != double.rounded(.towardZero) {
                return double.description
            }
        }
        // The rare rest (an integral number written with a fraction or an exponent, one out of range,
        // one JSONDecoder's scanner lets through but does not read): JSONDecoder's own conversion.
        var document = Data(#"{"value":"#.utf8)
        document.append(contentsOf: UnsafeBufferPointer(rebasing: cursor.bytes[range]))
        document.append(UInt8(ascii: "}"))
        return (try? JSONDecoder().decode(ConfigState.self, from: document))?.value
    }

    // MARK: - Strings

    /// Reads a string from its opening quote; one that is not valid JSON text fails the set.
    private mutating func readStringToken() throws(JSONParsingError) -> StringToken {
        let quote = cursor.position
        var index = quote + 1
        var isASCII = true
        let bytes = cursor.bytes
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                cursor.position = index + 1
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
        // Escapes or control characters: decode strictly (a raw control character fails here).
        cursor.position = quote
        let text = try cursor.parseString()
        let raw = UnsafeBufferPointer(rebasing: bytes[quote..<cursor.position])
        guard raw.allSatisfy({ $0 < 0x80 }) || Self.isValidUTF8(raw) else {
            throw JSONParsingError(offset: quote, reason: "a string that is not valid UTF-8")
        }
        return .decoded(text)
    }

    private func string(of token: StringToken) -> String {
        switch token {
        case .raw(let range): cursor.text(range)
        case .decoded(let text): text
        }
    }

    private func matches(_ token: StringToken, _ name: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        switch token {
        case .raw(let range): return UnsafeBufferPointer(rebasing: cursor.bytes[range]).elementsEqual(expected)
        case .decoded(let text): return text.utf8.elementsEqual(expected)
        }
    }

    /// Reads an object key and the colon after it.
    private mutating func readMemberKey() throws(JSONParsingError) -> String {
        guard cursor.peek() == UInt8(ascii: "\"") else { throw cursor.error("expected a string as an object key") }
        let key = string(of: try readStringToken())
        try expectColon()
        return key
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

    // MARK: - Structure

    /// Moves past `{` and whitespace; returns whether a member follows (rather than `}`).
    private mutating func openObject() throws(JSONParsingError) -> Bool {
        cursor.position += 1
        cursor.skipWhitespace()
        if cursor.peek() == UInt8(ascii: "}") {
            cursor.position += 1
            return false
        }
        return true
    }

    /// Moves past what follows a member's value: `,` (and whitespace) before another member, or the
    /// closing `}` (after an optional trailing comma). Returns whether another member follows.
    private mutating func nextMember() throws(JSONParsingError) -> Bool {
        cursor.skipWhitespace()
        switch cursor.peek() {
        case UInt8(ascii: ","):
            cursor.position += 1
            cursor.skipWhitespace()
            guard cursor.peek() == UInt8(ascii: "}") else { return true }
            cursor.position += 1
            return false
        case UInt8(ascii: "}"):
            cursor.position += 1
            return false
        default:
            throw cursor.error("expected ',' or '}' in an object")
        }
    }

    /// Moves past whitespace, `:` and whitespace, to a member's value.
    private mutating func expectColon() throws(JSONParsingError) {
        cursor.skipWhitespace()
        guard cursor.peek() == UInt8(ascii: ":") else { throw cursor.error("expected ':' after an object key") }
        cursor.position += 1
        cursor.skipWhitespace()
    }

    /// Moves past one value without keeping it, checking its structure as JSONDecoder's scanner does.
    /// - Parameter parentDepth: The depth of the object holding the value (the set's is 1).
    private mutating func skipValue(parentDepth: Int) throws(JSONParsingError) {
        var openObjects: [Bool] = []  // for each open container, whether it is an object
        while true {
            cursor.skipWhitespace()
            guard let byte = cursor.peek() else { throw cursor.error("expected a value, found the end of the text") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard parentDepth + openObjects.count < Self.maximumDepth else {
                    throw cursor.error("arrays and objects nest deeper than \(Self.maximumDepth) levels")
                }
                let isObject = byte == UInt8(ascii: "{")
                cursor.position += 1
                cursor.skipWhitespace()
                if cursor.peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    cursor.position += 1
                } else {
                    openObjects.append(isObject)
                    if isObject { try skipMemberKey() }
                    continue
                }
            case UInt8(ascii: "\""): try skipStringToken()
            case UInt8(ascii: "t"): try cursor.expectWord("true")
            case UInt8(ascii: "f"): try cursor.expectWord("false")
            case UInt8(ascii: "n"): try cursor.expectWord("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = skipNumberToken()
            default: throw cursor.error("expected a value")
            }
            // After a value: close the containers that end here, or go on to the next element.
            while let isObject = openObjects.last {
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                cursor.skipWhitespace()
                if cursor.peek() == UInt8(ascii: ",") {
                    cursor.position += 1
                    cursor.skipWhitespace()
                    if cursor.peek() != closer {
                        if isObject { try skipMemberKey() }
                        break
                    }
                }
                guard cursor.peek() == closer else {
                    throw cursor.error(
                        isObject ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
                }
                cursor.position += 1
                openObjects.removeLast()
            }
            if openObjects.isEmpty { return }
        }
    }

    /// Moves past `"key" :` in a skipped object, checking only that the key is a string token.
    private mutating func skipMemberKey() throws(JSONParsingError) {
        cursor.skipWhitespace()
        guard cursor.peek() == UInt8(ascii: "\"") else { throw cursor.error("expected a string as an object key") }
        try skipStringToken()
        try expectColon()
    }

    /// Moves past a string token from its opening quote to its closing one, checking it as a read
    /// string is checked: a skipped value that is not valid JSON fails the set too.
    private mutating func skipStringToken() throws(JSONParsingError) {
        _ = try readStringToken()
    }

    /// Moves past a number token (a run of `0-9 . e E + -`) and returns its range.
    private mutating func skipNumberToken() -> Range<Int> {
        let start = cursor.position
        while let byte = cursor.peek() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                UInt8(ascii: "+"), UInt8(ascii: "-"):
                cursor.position += 1
            default:
                return start..<cursor.position
            }
        }
        return start..<cursor.position
    }
}
