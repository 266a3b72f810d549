#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#elseif canImport(Musl)
internal import Musl
#endif

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
/// line) never exceed `maxEventSize`: a line or an event that would is refused as soon as its first
/// byte past the limit arrives, without waiting for its end.
///
/// It works on whole chunks in linear time: line ends are found with `memchr`, a complete line is read
/// in place and copied only when it spans two chunks, and the comment lines of one chunk (a heartbeat,
/// or a flood of them) are reported as one ``SSEItem/comment(_:)``, with the text of the last.
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
    /// - Parameter bytes: The bytes, split anywhere; contiguous storage (`Data`, `[UInt8]`) is read in place.
    /// - Returns: What the bytes completed, in order.
    /// - Throws: ``SSEParserError/eventTooLarge(limit:)`` when an event grows past the limit; the parser
    ///   must not be fed again.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(SSEParserError) -> [SSEItem] {
        var output = Output()
        let scanned = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(SSEParserError) in try scan(buffer, into: &output) }
        }
        if let scanned {
            try scanned.get()
        } else {
            let copy = Array(bytes)
            try copy.withUnsafeBufferPointer { (buffer) throws(SSEParserError) in try scan(buffer, into: &output) }
        }
        return output.items
    }

    /// The items of one feed, with the comment lines of a run kept as one pending comment.
    private struct Output {
        var items: [SSEItem] = []
        /// The text of the last comment of the current run, not yet made an item.
        var pendingComment: [UInt8]?
        /// The same, as a range of the chunk being scanned, to copy only if it stays the last.
        var pendingCommentRange: Range<Int>?

        mutating func append(_ item: SSEItem, chunk: UnsafeBufferPointer<UInt8>) {
            flushComment(chunk: chunk)
            items.append(item)
        }

        mutating func flushComment(chunk: UnsafeBufferPointer<UInt8>) {
            if let range = pendingCommentRange {
                items.append(.comment(String(decoding: UnsafeBufferPointer(rebasing: chunk[range]), as: UTF8.self)))
            } else if let text = pendingComment {
                items.append(.comment(String(decoding: text, as: UTF8.self)))
            }
            pendingComment = nil
            pendingCommentRange = nil
        }
    }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout Output) throws(SSEParserError) {
        var index = 0
        // One byte order mark may start the stream, even split across chunks.
        while !isPastByteOrderMark, index < bytes.count {
            leadingBytes.append(bytes[index])
            index += 1
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
            try pending.withUnsafeBufferPointer { (buffer) throws(SSEParserError) in
                try scanLines(buffer, into: &output)
            }
        }
        try scanLines(UnsafeBufferPointer(rebasing: bytes[index...]), into: &output)
    }

    private mutating func scanLines(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout Output)
        throws(SSEParserError)
    {
        defer { output.flushComment(chunk: bytes) }
        var index = 0
        while index < bytes.count {
            if previousWasCarriageReturn {
                previousWasCarriageReturn = false
                if bytes[index] == Self.lineFeed {
                    index += 1
                    continue
                }
            }
            let end = Self.lineEnd(in: bytes, from: index)
            if lineBuffer.isEmpty, end < bytes.count, bytes[index] == Self.colon, end - index <= maxEventSize {
                // A whole comment line in place, the common case of a heartbeat or a flood: noted, not copied.
                output.pendingComment = nil
                output.pendingCommentRange = index + 1..<end
                previousWasCarriageReturn = bytes[end] == Self.carriageReturn
                index = end + 1
                continue
            }
            guard lineBuffer.count + (end - index) + dataBuffer.count <= maxEventSize else {
                throw .eventTooLarge(limit: maxEventSize)
            }
            guard end < bytes.count else {
                lineBuffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index...]))
                return
            }
            if lineBuffer.isEmpty {
                try endLine(UnsafeBufferPointer(rebasing: bytes[index..<end]), at: index, of: bytes, into: &output)
            } else {
                lineBuffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                var line: [UInt8] = []
                swap(&line, &lineBuffer)
                try line.withUnsafeBufferPointer { (buffer) throws(SSEParserError) in
                    try endLine(buffer, at: nil, of: bytes, into: &output)
                }
                line.removeAll(keepingCapacity: line.count <= 4096)
                lineBuffer = line
            }
            previousWasCarriageReturn = bytes[end] == Self.carriageReturn
            index = end + 1
        }
    }

    /// The offset of the first CR or LF at or after `start`, or the end of `bytes`.
    private static func lineEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        let length = bytes.count - start
        let origin = UnsafeRawPointer(base + start)
        let lineFeedOffset = memchr(origin, Int32(lineFeed), length).map { UnsafeRawPointer($0) - origin }
        let searched = lineFeedOffset ?? length
        let carriageReturnOffset = memchr(origin, Int32(carriageReturn), searched).map { UnsafeRawPointer($0) - origin }
        return start + (carriageReturnOffset ?? searched)
    }

    /// Handles one complete line, without its line end.
    /// - Parameters:
    ///   - line: The line.
    ///   - offset: Where the line starts in `chunk` when it is read in place, `nil` when it was copied.
    ///   - chunk: The chunk being scanned.
    private mutating func endLine(
        _ line: UnsafeBufferPointer<UInt8>,
        at offset: Int?,
        of chunk: UnsafeBufferPointer<UInt8>,
        into output: inout Output
    ) throws(SSEParserError) {
        guard !line.isEmpty else {
            dispatch(into: &output, chunk: chunk)
            return
        }
        if line[0] == Self.colon {
            // A comment: only the last of a run is made an item.
            if let offset {
                output.pendingComment = nil
                output.pendingCommentRange = offset + 1..<offset + line.count
            } else {
                output.pendingCommentRange = nil
                output.pendingComment = Array(line.dropFirst())
            }
            return
        }
        let field: UnsafeBufferPointer<UInt8>
        var value: UnsafeBufferPointer<UInt8>
        if let colonIndex = line.firstIndex(of: Self.colon) {
            field = UnsafeBufferPointer(rebasing: line[..<colonIndex])
            value = UnsafeBufferPointer(rebasing: line[(colonIndex + 1)...])
            if value.first == Self.space { value = UnsafeBufferPointer(rebasing: value.dropFirst()) }
        } else {
            field = line
            value = UnsafeBufferPointer(start: nil, count: 0)
        }
        if Self.matches(field, "data") {
            guard dataBuffer.count + value.count + 1 <= maxEventSize else {
                throw .eventTooLarge(limit: maxEventSize)
            }
            if hasData { dataBuffer.append(Self.lineFeed) }
            dataBuffer.append(contentsOf: value)
            hasData = true
        } else if Self.matches(field, "event") {
            eventType = String(decoding: value, as: UTF8.self)
        } else if Self.matches(field, "id") {
            if value.count <= Self.maximumEventIDLength, !value.contains(0) {
                eventIDBuffer = String(decoding: value, as: UTF8.self)
            }
        } else if Self.matches(field, "retry") {
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                output.append(.retry(milliseconds), chunk: chunk)
            }
        }
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    private mutating func dispatch(into output: inout Output, chunk: UnsafeBufferPointer<UInt8>) {
        lastEventID = eventIDBuffer
        defer {
            dataBuffer.removeAll(keepingCapacity: dataBuffer.count <= 65_536)
            hasData = false
            eventType = nil
        }
        guard hasData, !dataBuffer.isEmpty else { return }
        let data = String(decoding: dataBuffer, as: UTF8.self)
        output.append(
            .event(SSEEvent(type: eventType ?? "message", data: data, lastEventID: lastEventID)), chunk: chunk)
    }
}
