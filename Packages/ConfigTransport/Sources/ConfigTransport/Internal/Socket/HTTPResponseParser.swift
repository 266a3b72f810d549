#if canImport(Glibc)
internal import Foundation

/// Why an HTTP/1.1 response could not be parsed.
enum HTTPResponseParserError: Error, Sendable, Hashable {
    /// The status line and header fields grew past the limit before their blank line.
    case headTooLarge(limit: Int)
    /// The status line is not `HTTP/1.x NNN reason`.
    case malformedStatusLine
    /// A header field line has no name or no colon.
    case malformedHeaderField
    /// `Content-Length` is not one non-negative number (or several equal ones).
    case invalidContentLength
    /// A `Transfer-Encoding` other than `chunked` last, which cannot be framed.
    case unsupportedTransferEncoding
    /// A chunk-size line is not hexadecimal, is too long, or a chunk is not followed by CRLF.
    case malformedChunk
    /// The connection ended before the response was complete.
    case truncated
}

/// An incremental HTTP/1.1 response parser: bytes in, head and body parts out, as they arrive.
///
/// The head (status line and header fields) is bounded by `maxHeadSize`; interim `1xx` responses are skipped.
/// The body is framed as RFC 9112 §6.3 says: none for `HEAD`, `1xx`, `204` and `304`; chunked when
/// `Transfer-Encoding` ends in `chunked` (trailer fields are read and dropped); `Content-Length` bytes; or
/// until the connection closes. Body bytes are handed on as soon as they are fed, never held back.
struct HTTPResponseParser: Sendable {
    /// What one call to ``feed(_:)`` or ``finish()`` found, in order.
    enum Event: Sendable, Hashable {
        /// The final response's status and header fields.
        case head(HTTPResponseHead)
        /// The next bytes of the decoded body.
        case body(Data)
        /// The response is complete; nothing more is read.
        case end
    }

    /// The default bound of the head, in bytes.
    static let defaultMaxHeadSize = 64 * 1024
    /// The bound of one chunk-size line (with its extensions) or trailer field line, in bytes.
    static let maxChunkLineSize = 4 * 1024

    private enum State: Sendable {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(size: Int)
        case untilClose
        case done
    }

    private let maxHeadSize: Int
    private let hasNoBody: Bool
    private var state = State.head
    private var buffer: [UInt8] = []
    /// How far `buffer` was already searched for a line end, so that a slowly fed head is scanned once.
    private var scanned = 0

    /// Creates a parser for the response to one request.
    /// - Parameters:
    ///   - requestMethod: The request's method; a response to `HEAD` has no body.
    ///   - maxHeadSize: The most bytes of status line and header fields, including their line ends.
    init(requestMethod: String = "GET", maxHeadSize: Int = HTTPResponseParser.defaultMaxHeadSize) {
        self.hasNoBody = requestMethod.uppercased() == "HEAD"
        self.maxHeadSize = maxHeadSize
    }

    /// Whether the response is complete.
    var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Parses the next bytes received.
    /// - Parameter bytes: The bytes, as they came off the connection.
    /// - Returns: What they completed, in order; body bytes are returned without waiting for more.
    /// - Throws: ``HTTPResponseParserError`` when the bytes are not a valid response.
    mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws(HTTPResponseParserError) -> [Event]
    where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        var offset = 0
        defer {
            buffer.removeFirst(offset)
            scanned = max(0, scanned - offset)
        }
        while offset < buffer.count {
            switch state {
            case .done:
                // Anything after the end of the response is ignored: the connection is closed after it.
                offset = buffer.count
            case .head:
                guard let end = headEnd(from: offset) else {
                    if buffer.count - offset > maxHeadSize { throw .headTooLarge(limit: maxHeadSize) }
                    return events
                }
                guard end - offset <= maxHeadSize else { throw .headTooLarge(limit: maxHeadSize) }
                let head = try Self.parseHead(buffer[offset..<end])
                offset = end
                scanned = end
                if (100...199).contains(head.statusCode) && head.statusCode != 101 { continue }
                events.append(.head(head))
                state = try bodyState(for: head)
                if case .done = state { events.append(.end) }
            case .fixed(let remaining):
                let count = min(remaining, buffer.count - offset)
                events.append(.body(Data(buffer[offset..<offset + count])))
                offset += count
                state = remaining == count ? .done : .fixed(remaining: remaining - count)
                if case .done = state { events.append(.end) }
            case .untilClose:
                events.append(.body(Data(buffer[offset...])))
                offset = buffer.count
            case .chunkSize:
                guard let lineEnd = lineEnd(from: offset) else {
                    if buffer.count - offset > Self.maxChunkLineSize { throw .malformedChunk }
                    return events
                }
                guard lineEnd.start - offset <= Self.maxChunkLineSize else { throw .malformedChunk }
                let size = try Self.chunkSize(buffer[offset..<lineEnd.start])
                offset = lineEnd.next
                scanned = offset
                state = size == 0 ? .trailers(size: 0) : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let count = min(remaining, buffer.count - offset)
                events.append(.body(Data(buffer[offset..<offset + count])))
                offset += count
                state = remaining == count ? .chunkDataEnd : .chunkData(remaining: remaining - count)
            case .chunkDataEnd:
                guard let lineEnd = lineEnd(from: offset) else {
                    if buffer.count - offset >= 2 { throw .malformedChunk }
                    return events
                }
                guard lineEnd.start == offset else { throw .malformedChunk }
                offset = lineEnd.next
                scanned = offset
                state = .chunkSize
            case .trailers(let size):
                guard let lineEnd = lineEnd(from: offset) else {
                    if size + buffer.count - offset > Self.maxChunkLineSize { throw .malformedChunk }
                    return events
                }
                let lineSize = lineEnd.next - offset
                guard size + lineSize <= Self.maxChunkLineSize else { throw .malformedChunk }
                let isBlank = lineEnd.start == offset
                offset = lineEnd.next
                scanned = offset
                state = isBlank ? .done : .trailers(size: size + lineSize)
                if isBlank { events.append(.end) }
            }
        }
        return events
    }

    /// Tells the parser that the connection ended.
    /// - Returns: ``Event/end`` when the body was framed by the connection's end, else nothing.
    /// - Throws: ``HTTPResponseParserError/truncated`` when the response was not complete.
    mutating func finish() throws(HTTPResponseParserError) -> [Event] {
        switch state {
        case .done:
            return []
        case .untilClose:
            state = .done
            return [.end]
        default:
            throw .truncated
        }
    }

    private func bodyState(for head: HTTPResponseHead) throws(HTTPResponseParserError) -> State {
        if hasNoBody || head.statusCode == 204 || head.statusCode == 304 || head.statusCode < 200 { return .done }
        if let encodings = head.value(forHeader: "Transfer-Encoding") {
            let last = encodings.split(separator: ",").last?.trimmingCharacters(in: .whitespaces).lowercased()
            guard last == "chunked" else { throw .unsupportedTransferEncoding }
            return .chunkSize
        }
        if let value = head.value(forHeader: "Content-Length") {
            let lengths = Set(
                value.split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
            guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.count <= 18,
                text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(text)
            else { throw .invalidContentLength }
            return length == 0 ? .done : .fixed(remaining: length)
        }
        return .untilClose
    }

    /// The index just past the blank line that ends the head, searching on from where the last search stopped.
    private mutating func headEnd(from offset: Int) -> Int? {
        var index = max(offset, scanned)
        while index < buffer.count {
            if buffer[index] == 0x0A {
                // A line end is LF or CRLF; the head ends at an empty line.
                let previous = index - 1
                if previous >= offset, buffer[previous] == 0x0A { return index + 1 }
                if previous - 1 >= offset, buffer[previous] == 0x0D, buffer[previous - 1] == 0x0A { return index + 1 }
            }
            index += 1
        }
        scanned = index
        return nil
    }

    /// The next line end at or after `offset`: where the line's content stops and where the next line starts.
    private mutating func lineEnd(from offset: Int) -> (start: Int, next: Int)? {
        var index = max(offset, scanned)
        while index < buffer.count {
            if buffer[index] == 0x0A {
                let start = index > offset && buffer[index - 1] == 0x0D ? index - 1 : index
                return (start, index + 1)
            }
            index += 1
        }
        scanned = index
        return nil
    }

    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPResponseParserError) -> Int {
        // Chunk extensions (after `;`) are ignored.
        let digits = line.prefix { $0 != 0x3B }.filter { $0 != 0x20 && $0 != 0x09 }
        guard !digits.isEmpty, digits.count <= 15 else { throw .malformedChunk }
        var size = 0
        for digit in digits {
            guard let value = hexValue(digit) else { throw .malformedChunk }
            size = size * 16 + value
        }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        default: return nil
        }
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPResponseParserError) -> HTTPResponseHead {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { throw .malformedStatusLine }
        let statusCode = try parseStatusLine(statusLine)
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            if line.first == 0x20 || line.first == 0x09 {
                // An obsolete line folding continues the previous field's value.
                guard !fields.isEmpty else { throw .malformedHeaderField }
                fields[fields.count - 1].value += " " + trimmed(line)
                continue
            }
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex else { throw .malformedHeaderField }
            let name = line[line.startIndex..<colon]
            guard name.allSatisfy(isTokenCharacter) else { throw .malformedHeaderField }
            fields.append((String(decoding: name, as: UTF8.self).lowercased(), trimmed(line[(colon + 1)...])))
        }
        var headers: [String: String] = [:]
        for field in fields {
            if let existing = headers[field.name] {
                headers[field.name] = existing + ", " + field.value
            } else {
                headers[field.name] = field.value
            }
        }
        return HTTPResponseHead(statusCode: statusCode, headers: headers)
    }

    private static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(HTTPResponseParserError) -> Int {
        let prefix = Array("HTTP/1.".utf8)
        guard line.count >= 12, line.starts(with: prefix) else { throw .malformedStatusLine }
        let rest = Array(line.dropFirst(prefix.count))
        // `HTTP/1.x NNN` then a space and a reason phrase, which may be empty (the space may be missing too).
        guard (0x30...0x39).contains(rest[0]), rest[1] == 0x20 else { throw .malformedStatusLine }
        let digits = rest[2..<5]
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }), rest.count == 5 || rest[5] == 0x20 else {
            throw .malformedStatusLine
        }
        let code = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard code >= 100 else { throw .malformedStatusLine }
        return code
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
#endif
