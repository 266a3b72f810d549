/// The single-pass decoder behind ``ConfigSet/init(jsonBytes:)``: it reads the bytes once with
/// ``JSONCursor``, builds the configs as it goes, and keeps no representation of the document.
///
/// The text must be JSON (RFC 8259) as ``JSONCursor`` reads it; any text that is not, a string that is
/// not valid JSON text included (a bad escape, an unpaired surrogate, a raw control character, invalid
/// UTF-8), read or skipped, fails the whole set (issue 18). On JSON, it applies exactly the leniency of
/// PROTOCOL §3:
/// - the set must be an object; a JSON object without a `configs` object (the member missing or
///   `null`) is not a config set, but another frame (a heartbeat, say), and decodes as `nil`: read as a
///   full set without configs, it would remove every config (PROTOCOL §3); a set whose `configs` is
///   another value fails;
/// - every field is optional, and a field of the wrong type counts as missing: `value` is a string or
///   nothing, like every other field;
/// - a missing or unknown `kind` is ``ConfigSet/Kind/full``, a missing or unknown `type` is
///   ``ConfigType/custom``;
/// - an entry of `configs` that is not an object is skipped; unknown fields are ignored.
///
/// Decoding a file written by hand (`literalValues`, a bundled values file), a config's `value` may also be
/// a JSON literal (`true`, `42`, an array, an object), served as its text (``JSONValue/wireText``); there a
/// number too large for a `Double` is an error, since the literal cannot be served as it is written.
///
/// Of repeated keys in an object, the last wins, as in ``JSONParser``.
struct ConfigSetDecoder {
    private var cursor: JSONCursor
    /// The depth of the set's object: 1 for a whole input, 2 for a member of the input's object.
    private var setDepth = 1
    /// Whether a config's value may be a JSON literal, read as its text.
    private let literalValues: Bool

    /// Creates a decoder of `bytes`, which must outlive it.
    /// - Parameter literalValues: Whether a config's value may be a JSON literal, served as its text.
    init(bytes: UnsafeBufferPointer<UInt8>, literalValues: Bool = false) {
        cursor = JSONCursor(bytes: bytes)
        self.literalValues = literalValues
    }

    /// Decodes the whole input as one config set; `nil` when it is an object without a `configs` object.
    mutating func decode() throws(JSONParsingError) -> ConfigSet? {
        try openDocument()
        let set = try readSet()
        try closeDocument()
        return try set.get()
    }

    /// Decodes a document that is an object holding a config set as its member `name`: the set, when
    /// that member is an object with a `configs` object, and every other member as a value.
    mutating func decodeDocument(setMember name: String) throws(JSONParsingError)
        -> (set: ConfigSet?, members: [String: JSONValue])
    {
        try openDocument()
        var set: Result<ConfigSet?, JSONParsingError>?
        var members: [String: JSONValue] = [:]
        if cursor.open() {
            repeat {
                let key = cursor.string(of: try cursor.readMemberKey())
                if key == name, cursor.peek() == UInt8(ascii: "{") {
                    setDepth = 2
                    set = try readSet()
                    members[key] = nil
                } else {
                    if key == name { set = nil }
                    members[key] = try JSONParser.parseValue(&cursor, depth: 1)
                }
            } while try cursor.next(inObject: true)
        }
        try closeDocument()
        return (try set?.get() ?? nil, members)
    }

    /// Moves past a byte order mark and whitespace to the `{` that starts the input.
    private mutating func openDocument() throws(JSONParsingError) {
        cursor.skipByteOrderMark()
        cursor.skipWhitespace()
        guard cursor.peek() == UInt8(ascii: "{") else { throw cursor.error("expected an object") }
    }

    /// Checks that only whitespace follows the input's object.
    private mutating func closeDocument() throws(JSONParsingError) {
        cursor.skipWhitespace()
        guard cursor.isAtEnd else { throw cursor.error("unexpected text after the object") }
    }

    /// Reads a config set's object, from its `{`.
    /// - Returns: The set; `nil` when its `configs` (the last, if repeated) is missing or `null`; or, when
    ///   that is neither an object nor `null`, the error that fails it. The error is thrown only for text
    ///   that is not JSON.
    private mutating func readSet() throws(JSONParsingError) -> Result<ConfigSet?, JSONParsingError> {
        var set = ConfigSet(configs: [:])
        var hasConfigs = false
        var invalidConfigs: JSONParsingError?
        guard cursor.open() else { return .success(nil) }
        repeat {
            let key = try cursor.readMemberKey()
            if cursor.matches(key, "environmentId") {
                set.environmentID = try readString(depth: setDepth)
            } else if cursor.matches(key, "projectId") {
                set.projectID = try readString(depth: setDepth)
            } else if cursor.matches(key, "kind") {
                set.kind = try readString(depth: setDepth).flatMap(ConfigSet.Kind.init) ?? .full
            } else if cursor.matches(key, "timestamp") {
                set.timestamp = try readString(depth: setDepth)
            } else if cursor.matches(key, "configs") {
                invalidConfigs = nil
                hasConfigs = false
                switch cursor.peek() {
                case UInt8(ascii: "{"):
                    set.configs = try readConfigs()
                    hasConfigs = true
                case UInt8(ascii: "n"):
                    try cursor.expectWord("null")
                    set.configs = [:]
                default:
                    // Not a set: a full set without its configs would remove every config.
                    invalidConfigs = cursor.error("configs is not an object")
                    try cursor.skipValue(depth: setDepth)
                }
            } else {
                try cursor.skipValue(depth: setDepth)
            }
        } while try cursor.next(inObject: true)
        if let invalidConfigs { return .failure(invalidConfigs) }
        return .success(hasConfigs ? set : nil)
    }

    /// Reads `configs` from its `{`, entry by entry.
    private mutating func readConfigs() throws(JSONParsingError) -> [ExactKey: ConfigState] {
        // Sized once: growing would hold the old and the new storage at once, the largest share of
        // the peak memory of decoding a large set.
        var configs: [ExactKey: ConfigState] = [:]
        configs.reserveCapacity(countMembers())
        guard cursor.open() else { return configs }
        repeat {
            let key = ExactKey(cursor.string(of: try cursor.readMemberKey()))
            if let state = try readEntry(named: key.name) {
                configs[key] = state
            } else {
                configs[key] = nil
            }
        } while try cursor.next(inObject: true)
        return configs
    }

    /// Counts the members of the object that starts at the position, without moving: a quick look
    /// ahead (brackets, commas and strings only, in linear time) to size the configs dictionary once.
    /// It may count a repeated or skipped member, but never more than one member per five bytes.
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
        let depth = setDepth + 2
        guard cursor.peek() == UInt8(ascii: "{") else {
            try cursor.skipValue(depth: depth - 1)
            return nil
        }
        var state = ConfigState(type: .custom, value: nil)
        guard cursor.open() else { return state }
        repeat {
            let key = try cursor.readMemberKey()
            if cursor.matches(key, "id") {
                state.id = try readString(depth: depth)
            } else if cursor.matches(key, "key") {
                state.key = try readString(depth: depth, reusing: name)
            } else if cursor.matches(key, "type") {
                state.type = try readString(depth: depth).flatMap(ConfigType.init) ?? .custom
            } else if cursor.matches(key, "value") {
                state.value =
                    literalValues && cursor.peek() != UInt8(ascii: "\"")
                    ? try JSONParser.parseValue(&cursor, depth: depth).wireText : try readString(depth: depth)
            } else if cursor.matches(key, "valueId") {
                state.valueID = try readString(depth: depth)
            } else {
                try cursor.skipValue(depth: depth)
            }
        } while try cursor.next(inObject: true)
        return state
    }

    /// Reads a value that is kept only when it is a string; any other value is skipped and is `nil`.
    /// - Parameters:
    ///   - depth: How many containers hold the value.
    ///   - known: A string returned instead of a new one when the value has the same text.
    private mutating func readString(depth: Int, reusing known: String? = nil) throws(JSONParsingError) -> String? {
        guard cursor.peek() == UInt8(ascii: "\"") else {
            try cursor.skipValue(depth: depth)
            return nil
        }
        let token = try cursor.readStringToken()
        if let known, case .raw(let range) = token,
            known.utf8.elementsEqual(UnsafeBufferPointer(rebasing: cursor.bytes[range]))
        {
            return known
        }
        return cursor.string(of: token)
    }
}
