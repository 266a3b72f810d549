internal import Foundation

/// Reads HTTP/1.1 requests from bytes: strict about framing, bounded in every size, never trapping.
struct HTTPRequestParser: Sendable {
    /// The outcome of looking at the bytes received so far.
    enum Outcome<Value> {
        case incomplete
        case complete(Value)
        case failure(status: Int, reason: String)
    }

    var maxHeadBytes: Int
    var maxBodyBytes: Int
    var maxHeaderCount = 100

    private static let crlf: [UInt8] = [13, 10]

    /// Parses the request line and header fields.
    func parseHead(_ bytes: [UInt8]) -> Outcome<HTTPRequestHead> {
        guard let end = Self.find([13, 10, 13, 10], in: bytes, from: 0, limit: maxHeadBytes + 4) else {
            if bytes.count > maxHeadBytes { return .failure(status: 413, reason: "request head too large") }
            if let bare = bytes.firstIndex(of: 10), bare == 0 || bytes[bare - 1] != 13 {
                return .failure(status: 400, reason: "line not ended by CRLF")
            }
            return .incomplete
        }
        guard let text = String(bytes: bytes[0..<end], encoding: .utf8) else {
            return .failure(status: 400, reason: "head is not UTF-8")
        }
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, Self.isToken(requestLine[0]), requestLine[1].hasPrefix("/"),
            requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0",
            !requestLine[1].contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 32 } ?? false })
        else { return .failure(status: 400, reason: "malformed request line") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard headers.count < maxHeaderCount else { return .failure(status: 413, reason: "too many header fields") }
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(status: 400, reason: "header without colon")
            }
            let name = line[line.startIndex..<colon]
            guard Self.isToken(name) else { return .failure(status: 400, reason: "malformed header name") }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !value.unicodeScalars.contains(where: { $0.value < 32 && $0 != "\t" || $0.value == 127 }) else {
                return .failure(status: 400, reason: "control character in header value")
            }
            headers.append((String(name), value))
        }
        return .complete(
            HTTPRequestHead(
                method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, length: end + 4
            )
        )
    }

    /// How the body after a head is framed.
    enum BodyFraming: Equatable {
        case length(Int)
        case chunked
    }

    /// Decides the body's framing from the head's fields.
    func framing(of head: HTTPRequestHead) -> Outcome<BodyFraming> {
        let lengths = head.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value)
        let encodings = head.headers.filter { $0.name.lowercased() == "transfer-encoding" }.map(\.value)
        if !encodings.isEmpty {
            guard lengths.isEmpty else { return .failure(status: 400, reason: "both Content-Length and chunked") }
            guard encodings.count == 1, encodings[0].lowercased() == "chunked" else {
                return .failure(status: 400, reason: "unsupported Transfer-Encoding")
            }
            return .complete(.chunked)
        }
        guard let first = lengths.first else { return .complete(.length(0)) }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18,
            first.utf8.allSatisfy({ (48...57).contains($0) }), let length = Int(first)
        else { return .failure(status: 400, reason: "malformed Content-Length") }
        guard length <= maxBodyBytes else { return .failure(status: 413, reason: "body too large") }
        return .complete(.length(length))
    }

    /// Decodes a chunked body that starts at `start`.
    /// - Returns: The body and the index just after its last byte.
    func decodeChunked(_ bytes: [UInt8], from start: Int) -> Outcome<(body: [UInt8], end: Int)> {
        var body: [UInt8] = []
        var position = start
        while true {
            guard let lineEnd = Self.find(Self.crlf, in: bytes, from: position, limit: 1024) else {
                return bytes.count - position > 1024
                    ? .failure(status: 400, reason: "chunk size line too long") : .incomplete
            }
            let sizeField = bytes[position..<lineEnd].prefix { $0 != UInt8(ascii: ";") }
            guard !sizeField.isEmpty, sizeField.count <= 8,
                let size = Int(String(decoding: sizeField, as: UTF8.self), radix: 16), size >= 0
            else { return .failure(status: 400, reason: "malformed chunk size") }
            guard body.count + size <= maxBodyBytes else { return .failure(status: 413, reason: "body too large") }
            position = lineEnd + 2
            if size == 0 {
                // Trailer fields are read and ignored up to the blank line.
                while true {
                    guard let trailerEnd = Self.find(Self.crlf, in: bytes, from: position, limit: 1024) else {
                        return bytes.count - position > 1024
                            ? .failure(status: 400, reason: "trailer too long") : .incomplete
                    }
                    if trailerEnd == position { return .complete((body, position + 2)) }
                    position = trailerEnd + 2
                }
            }
            guard bytes.count >= position + size + 2 else { return .incomplete }
            guard bytes[position + size] == 13, bytes[position + size + 1] == 10 else {
                return .failure(status: 400, reason: "chunk not followed by CRLF")
            }
            body.append(contentsOf: bytes[position..<position + size])
            position += size + 2
        }
    }

    /// Splits a target into its path and query items.
    static func splitTarget(_ target: String) -> (path: String, query: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for item in target[target.index(after: mark)...].split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            query[name] = value
        }
        return (String(target[..<mark]), query)
    }

    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                    || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
    }

    /// The index of `needle` in `bytes` at or after `start`, looking no further than `limit` bytes on.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int, limit: Int) -> Int? {
        guard start <= bytes.count else { return nil }
        let last = min(bytes.count - needle.count, start + limit)
        guard last >= start else { return nil }
        var index = start
        while index <= last {
            if bytes[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
