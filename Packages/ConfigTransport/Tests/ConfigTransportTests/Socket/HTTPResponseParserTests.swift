#if canImport(Glibc)  // The parser is the socket client's, compiled for Linux alone.
@_spi(Internal) @_spi(Testing) @testable import ConfigTransport
import Foundation
import TestSupport
import Testing

/// The incremental response parser: framing, limits, and seeded fuzzing.
@Suite("HTTP response parser", .timeLimit(.minutes(1)))
struct HTTPResponseParserTests {
    private struct Parsed: Equatable {
        var heads: [HTTPResponseHead] = []
        var body: [UInt8] = []
        var ended = false
    }

    /// Feeds `pieces` one by one, then the connection's end when `close` is set.
    private static func parse(
        _ pieces: [[UInt8]],
        method: String = "GET",
        maxHeadSize: Int = HTTPResponseParser.defaultMaxHeadSize,
        close: Bool = true
    ) throws(HTTPResponseParserError) -> Parsed {
        var parser = HTTPResponseParser(requestMethod: method, maxHeadSize: maxHeadSize)
        var parsed = Parsed()
        func apply(_ events: [HTTPResponseParser.Event]) {
            for event in events {
                switch event {
                case .head(let head): parsed.heads.append(head)
                case .body(let data): parsed.body += data
                case .end: parsed.ended = true
                }
            }
        }
        for piece in pieces {
            apply(try parser.feed(piece))
        }
        if close { apply(try parser.finish()) }
        return parsed
    }

    private static func parse(_ text: String, method: String = "GET", close: Bool = true) throws -> Parsed {
        try parse([Array(text.utf8)], method: method, close: close)
    }

    @Test("decodes chunks, extensions and trailers, and ends before the connection closes")
    func chunked() throws {
        let parsed = try Self.parse(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n4;a=b\r\nWiki\r\n9\r\npedia in \r\n0\r\nX: y\r\n\r\n",
            close: false
        )
        #expect(parsed.heads.map(\.statusCode) == [200])
        #expect(String(decoding: parsed.body, as: UTF8.self) == "Wikipedia in ")
        #expect(parsed.ended)
    }

    @Test("gives body bytes as soon as they are fed")
    func streamsBody() throws {
        var parser = HTTPResponseParser()
        let head = try parser.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nff\r\nab".utf8))
        #expect(
            head == [
                .head(HTTPResponseHead(statusCode: 200, headers: ["transfer-encoding": "chunked"])),
                .body(Data("ab".utf8)),
            ])
        #expect(try parser.feed(Array("c".utf8)) == [.body(Data("c".utf8))])
        #expect(!parser.isComplete)
    }

    @Test("accepts bare LF line ends, folded fields and an empty reason phrase")
    func lenient() throws {
        let parsed = try Self.parse("HTTP/1.1 503\nRetry-After: 1\nX-Long: a\n b\nContent-Length: 2\n\nok")
        #expect(parsed.heads.first?.statusCode == 503)
        #expect(parsed.heads.first?.value(forHeader: "retry-after") == "1")
        #expect(parsed.heads.first?.value(forHeader: "x-long") == "a b")
        #expect(parsed.body == Array("ok".utf8))
    }

    @Test("has no body for HEAD, 204 and 304, and skips interim responses")
    func noBody() throws {
        #expect(try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", method: "HEAD", close: false).ended)
        #expect(try Self.parse("HTTP/1.1 204 No Content\r\n\r\n", close: false).ended)
        #expect(try Self.parse("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n", close: false).ended)
        let parsed = try Self.parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        #expect(parsed.heads.map(\.statusCode) == [200])
    }

    @Test("refuses malformed heads, lengths and chunks")
    func malformed() {
        #expect(throws: HTTPResponseParserError.malformedStatusLine) { try Self.parse("HTTP/2 200 OK\r\n\r\n") }
        #expect(throws: HTTPResponseParserError.malformedStatusLine) { try Self.parse("HTTP/1.1 2x0 OK\r\n\r\n") }
        #expect(throws: HTTPResponseParserError.malformedHeaderField) {
            try Self.parse("HTTP/1.1 200 OK\r\nNo\r\n\r\n")
        }
        #expect(throws: HTTPResponseParserError.invalidContentLength) {
            try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n")
        }
        #expect(throws: HTTPResponseParserError.invalidContentLength) {
            try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n")
        }
        #expect(throws: HTTPResponseParserError.unsupportedTransferEncoding) {
            try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n")
        }
        #expect(throws: HTTPResponseParserError.malformedChunk) {
            try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
        }
        #expect(throws: HTTPResponseParserError.malformedChunk) {
            try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc")
        }
        #expect(throws: HTTPResponseParserError.truncated) {
            try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc")
        }
        #expect(throws: HTTPResponseParserError.truncated) { try Self.parse("HTTP/1.1 200 OK\r\n") }
    }

    @Test("bounds the head, fed at once or byte by byte")
    func headLimit() {
        let head = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Pad: 0123456789\r\n", count: 100)
        #expect(throws: HTTPResponseParserError.headTooLarge(limit: 1024)) {
            try Self.parse([Array(head.utf8)], maxHeadSize: 1024, close: false)
        }
        #expect(throws: HTTPResponseParserError.headTooLarge(limit: 1024)) {
            try Self.parse(Array(head.utf8).map { [$0] }, maxHeadSize: 1024, close: false)
        }
    }

    private static let samples = [
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "f\r\ndata: {\"a\":1}\n\n\r\n3;x\r\nabc\r\n0\r\nT: 1\r\n\r\n",
        "HTTP/1.1 401 Unauthorized\r\nContent-Length: 12\r\n\r\n{\"error\":1}\n",
        "HTTP/1.0 200 OK\r\nServer: x\r\n\r\nuntil the end",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 302 Found\r\nLocation: /x\r\nContent-Length: 0\r\n\r\n",
    ]

    @Test("gives the same parts however the bytes are split", arguments: 0..<4)
    func splits(sample: Int) throws {
        let bytes = Array(Self.samples[sample].utf8)
        let whole = try Self.parse([bytes])
        var generator = SplitMix64(seed: UInt64(sample + 1))
        for _ in 0..<200 {
            var pieces: [[UInt8]] = []
            var index = 0
            while index < bytes.count {
                let count = Int.random(in: 0...min(9, bytes.count - index), using: &generator)
                pieces.append(Array(bytes[index..<index + count]))
                index += count
            }
            #expect(try Self.parse(pieces) == whole)
        }
        #expect(whole.ended)
    }

    @Test("seeded fuzzing never crashes, hangs or keeps more than the head limit")
    func fuzz() {
        var generator = SplitMix64(seed: 42)
        let interesting: [UInt8] = [0x0A, 0x0D, 0x3A, 0x20, 0x3B, 0x30, 0x46, 0x66, 0x00, 0xFF, 0x2C, 0x39]
        var outcomes = [String: Int]()
        for _ in 0..<3000 {
            var bytes = Array(Self.samples.randomElement(using: &generator)!.utf8)
            for _ in 0..<Int.random(in: 1...6, using: &generator) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes[index] = interesting.randomElement(using: &generator)!
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(interesting.randomElement(using: &generator)!, at: index)
                default: bytes.insert(contentsOf: bytes[index...].prefix(40), at: index)
                }
            }
            var pieces: [[UInt8]] = []
            var index = 0
            while index < bytes.count {
                let count = Int.random(in: 1...max(1, min(64, bytes.count - index)), using: &generator)
                pieces.append(Array(bytes[index..<index + count]))
                index += count
            }
            do {
                let parsed = try Self.parse(pieces, maxHeadSize: 256)
                #expect(parsed.heads.count <= 1)
                #expect(parsed.body.count <= bytes.count)
                outcomes["parsed", default: 0] += 1
            } catch {
                outcomes["\(error)", default: 0] += 1
            }
        }
        #expect(outcomes["parsed", default: 0] > 0)
        #expect(outcomes.count > 2, "the mutations reach several outcomes: \(outcomes.keys.sorted())")
    }
}
#endif
