/// One message dispatched by an event stream.
@_spi(Testing) public struct SSEEvent: Sendable, Hashable {
    /// The `event:` name, `message` when the stream gave none.
    public var type: String
    /// The `data:` lines joined with `\n`; never empty.
    public var data: String
    /// The last event id when the message was dispatched, `nil` when the stream never sent one.
    public var lastEventID: String?

    /// Creates an event.
    /// - Parameters:
    ///   - type: The event name.
    ///   - data: The data.
    ///   - lastEventID: The last event id.
    public init(type: String = "message", data: String, lastEventID: String? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// Something the parser read from an event stream; each one counts as the connection delivering something.
@_spi(Testing) public enum SSEItem: Sendable, Hashable {
    /// A dispatched message.
    case event(SSEEvent)
    /// A comment line (`:` first), with the text after the colon.
    case comment(String)
    /// A valid `retry:` line, in milliseconds.
    case retry(Int)
}

/// Why the parser refused a stream.
@_spi(Testing) public enum SSEParserError: Error, Sendable, Hashable {
    /// One event (or one line) grew past the limit, in bytes; nothing more of it was kept.
    case eventTooLarge(limit: Int)
}

/// An incremental parser of `text/event-stream` bytes following the WHATWG EventSource rules (PROTOCOL §4).
///
/// Bytes can be fed split anywhere, including inside a CRLF pair or a multi-byte UTF-8 character: lines
/// are decoded only once complete. The bytes held for the event being read (its data and the current
/// line) never exceed `maxEventSize`.
@_spi(Testing) public struct SSEParser: Sendable {
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The longest `id:` kept, in UTF-8 bytes: a longer one is ignored (the last id stays), so that
    /// `Last-Event-ID` never makes a reconnect's request too large for a proxy (a 431 or 413).
    public static let maximumEventIDLength = 1024

    /// The most bytes one event (its data plus the line being read) may hold.
    public let maxEventSize: Int
    /// The last event id dispatched, kept across events as WHATWG says; `nil` until the stream sends one.
    public private(set) var lastEventID: String?

    private var leadingBytes: [UInt8] = []
    private var isPastByteOrderMark = false
    private var lineBuffer: [UInt8] = []
    private var previousWasCarriageReturn = false
    private var dataBuffer: [UInt8] = []
    private var hasData = false
    private var eventType: String?
    private var eventIDBuffer: String?

    /// Creates a parser.
    /// - Parameters:
    ///   - maxEventSize: The most bytes one event may hold.
    ///   - lastEventID: The last event id already known, if any.
    public init(maxEventSize: Int, lastEventID: String? = nil) {
        self.maxEventSize = maxEventSize
        self.lastEventID = lastEventID
        self.eventIDBuffer = lastEventID
    }

    /// Feeds the next bytes of the stream.
    /// - Parameter bytes: The bytes, split anywhere.
    /// - Returns: What the bytes completed, in order.
    /// - Throws: ``SSEParserError/eventTooLarge(limit:)`` when an event grows past the limit; the parser
    ///   must not be fed again.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(SSEParserError) -> [SSEItem] {
        var items: [SSEItem] = []
        for byte in bytes {
            if !isPastByteOrderMark {
                leadingBytes.append(byte)
                if Self.byteOrderMark.starts(with: leadingBytes) {
                    if leadingBytes.count == Self.byteOrderMark.count {
                        isPastByteOrderMark = true
                        leadingBytes = []
                    }
                    continue
                }
                isPastByteOrderMark = true
                let pending = leadingBytes
                leadingBytes = []
                for pendingByte in pending {
                    try consume(pendingByte, into: &items)
                }
                continue
            }
            try consume(byte, into: &items)
        }
        return items
    }

    private mutating func consume(_ byte: UInt8, into items: inout [SSEItem]) throws(SSEParserError) {
        if previousWasCarriageReturn {
            previousWasCarriageReturn = false
            if byte == Self.lineFeed { return }
        }
        switch byte {
        case Self.carriageReturn:
            previousWasCarriageReturn = true
            try endLine(into: &items)
        case Self.lineFeed:
            try endLine(into: &items)
        default:
            guard lineBuffer.count + dataBuffer.count < maxEventSize else {
                throw .eventTooLarge(limit: maxEventSize)
            }
            lineBuffer.append(byte)
        }
    }

    private mutating func endLine(into items: inout [SSEItem]) throws(SSEParserError) {
        defer { lineBuffer.removeAll(keepingCapacity: lineBuffer.count <= 4096) }
        guard !lineBuffer.isEmpty else {
            dispatch(into: &items)
            return
        }
        if lineBuffer[0] == Self.colon {
            items.append(.comment(String(decoding: lineBuffer.dropFirst(), as: UTF8.self)))
            return
        }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colonIndex = lineBuffer.firstIndex(of: Self.colon) {
            field = lineBuffer[..<colonIndex]
            value = lineBuffer[(colonIndex + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            field = lineBuffer[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            guard dataBuffer.count + value.count + 1 <= maxEventSize else {
                throw .eventTooLarge(limit: maxEventSize)
            }
            if hasData { dataBuffer.append(Self.lineFeed) }
            dataBuffer.append(contentsOf: value)
            hasData = true
        case "id":
            if value.count <= Self.maximumEventIDLength, !value.contains(0) {
                eventIDBuffer = String(decoding: value, as: UTF8.self)
            }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                items.append(.retry(milliseconds))
            }
        default:
            break
        }
    }

    private mutating func dispatch(into items: inout [SSEItem]) {
        lastEventID = eventIDBuffer
        defer {
            dataBuffer.removeAll(keepingCapacity: dataBuffer.count <= 65_536)
            hasData = false
            eventType = nil
        }
        guard hasData, !dataBuffer.isEmpty else { return }
        let data = String(decoding: dataBuffer, as: UTF8.self)
        items.append(.event(SSEEvent(type: eventType ?? "message", data: data, lastEventID: lastEventID)))
    }
}
