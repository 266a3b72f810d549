@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import Testing

@Suite("SSE parser", .timeLimit(.minutes(1)))
struct SSEParserTests {
    private func parse(_ chunks: [[UInt8]], maxEventSize: Int = 1 << 20) throws -> [SSEItem] {
        var parser = SSEParser(maxEventSize: maxEventSize)
        var items: [SSEItem] = []
        for chunk in chunks {
            items += try parser.feed(chunk)
        }
        return items
    }

    private func parse(_ text: String) throws -> [SSEItem] {
        try parse([Array(text.utf8)])
    }

    private func events(_ items: [SSEItem]) -> [SSEEvent] {
        items.compactMap { item in
            if case .event(let event) = item { return event }
            return nil
        }
    }

    @Test("dispatches a message on a blank line")
    func dispatch() throws {
        #expect(try parse("data: hello\n\n") == [.event(SSEEvent(data: "hello"))])
        #expect(try parse("data: hello\n").isEmpty)
    }

    @Test("joins several data lines with a line feed and keeps the event name")
    func multiLineData() throws {
        let items = try parse("event: update\ndata: one\ndata:two\ndata:  three\n\n")
        #expect(items == [.event(SSEEvent(type: "update", data: "one\ntwo\n three"))])
    }

    @Test("ends lines at CR, LF and CRLF alike")
    func lineEnds() throws {
        let expected: [SSEItem] = [.event(SSEEvent(data: "a")), .event(SSEEvent(data: "b"))]
        #expect(try parse("data: a\r\rdata: b\r\r") == expected)
        #expect(try parse("data: a\r\n\r\ndata: b\r\n\r\n") == expected)
        #expect(try parse("data: a\n\ndata: b\n\n") == expected)
        #expect(try parse("data: a\r\n\ndata: b\n\r\n") == expected)
    }

    @Test("takes a CR at the end of one chunk and an LF at the start of the next as one line end")
    func splitCRLF() throws {
        let items = try parse([
            Array("data: a\r".utf8), Array("\ndata: b\r".utf8), Array("\n\r".utf8), Array("\n".utf8),
        ])
        #expect(items == [.event(SSEEvent(data: "a\nb"))])
    }

    @Test("strips one leading byte order mark, even split across chunks, and only one")
    func byteOrderMark() throws {
        #expect(try parse([[0xEF], [0xBB], [0xBF] + Array("data: x\n\n".utf8)]) == [.event(SSEEvent(data: "x"))])
        let twice = try parse([[0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8)])
        #expect(twice.isEmpty, "a second BOM makes the field name unknown")
        #expect(try parse([[0xEF, 0xBB] + Array("\ndata: y\n\n".utf8)]) == [.event(SSEEvent(data: "y"))])
    }

    @Test("reports comments and drops events with empty data")
    func commentsAndEmptyData() throws {
        #expect(try parse(": keep-alive\n\n") == [.comment(" keep-alive")])
        #expect(try parse("data:\n\n").isEmpty)
        #expect(try parse("event: x\n\n").isEmpty)
    }

    @Test("keeps an id without NUL as the last event id and ignores one with NUL")
    func eventIDs() throws {
        var parser = SSEParser(maxEventSize: 1024)
        _ = try parser.feed(Array("id: 7\ndata: a\n\n".utf8))
        #expect(parser.lastEventID == "7")
        let items = try parser.feed(Array("id: 8\u{0}9\ndata: b\n\n".utf8))
        #expect(items == [.event(SSEEvent(data: "b", lastEventID: "7"))])
        _ = try parser.feed(Array("id\ndata: c\n\n".utf8))
        #expect(parser.lastEventID == "")
    }

    @Test("an id is taken only once its event is dispatched")
    func idNeedsDispatch() throws {
        var parser = SSEParser(maxEventSize: 1024)
        _ = try parser.feed(Array("id: 5\ndata: a\n".utf8))
        #expect(parser.lastEventID == nil)
        _ = try parser.feed(Array("\n".utf8))
        #expect(parser.lastEventID == "5")
    }

    @Test("accepts retry only when it is all ASCII digits")
    func retry() throws {
        #expect(try parse("retry: 1500\n") == [.retry(1500)])
        #expect(try parse("retry: 15x\nretry: -1\nretry:\nretry: 1.5\nretry:  2\n").isEmpty)
    }

    @Test("ignores unknown fields and takes a line without colon as a field with an empty value")
    func unknownFields() throws {
        #expect(try parse("foo: bar\ndata\n\n").isEmpty)
        #expect(try parse("data\ndata\ndata: x\n\n") == [.event(SSEEvent(data: "\n\nx"))])
    }

    @Test("decodes a multi-byte character split across chunks")
    func splitUTF8() throws {
        let bytes = Array("data: héllo 🎉\n\n".utf8)
        let index = bytes.firstIndex(of: 0xF0)! + 2
        let items = try parse([Array(bytes[..<index]), Array(bytes[index...])])
        #expect(items == [.event(SSEEvent(data: "héllo 🎉"))])
    }

    @Test("refuses an event larger than the limit, in data or in one line")
    func eventTooLarge() throws {
        #expect(throws: SSEParserError.eventTooLarge(limit: 64)) {
            try parse(
                [Array(("data: " + String(repeating: "x", count: 40) + "\n").utf8)] + [
                    Array(("data: " + String(repeating: "y", count: 40) + "\n").utf8)
                ],
                maxEventSize: 64
            )
        }
        #expect(throws: SSEParserError.eventTooLarge(limit: 64)) {
            try parse([Array(repeating: UInt8(ascii: "z"), count: 100)], maxEventSize: 64)
        }
        #expect(
            try parse([Array(("data: " + String(repeating: "x", count: 50) + "\n\n").utf8)], maxEventSize: 64).count
                == 1
        )
    }

    @Test("refuses an endless line while holding no more than the limit")
    func endlessLine() throws {
        var parser = SSEParser(maxEventSize: 1000)
        var thrown = false
        for _ in 0..<1000 {
            do {
                _ = try parser.feed(Array(repeating: UInt8(ascii: "a"), count: 100))
            } catch {
                thrown = true
                break
            }
        }
        #expect(thrown)
    }

    static let recordedStream: [UInt8] =
        [0xEF, 0xBB, 0xBF]
        + Array(
            (": welcome\r\n"
                + "retry: 3000\r\n"
                + "id: 1\r\nevent: config\r\n"
                + "data: {\"kind\":\"full\",\"configs\":{\"é\":{\"value\":\"🎉\"}}}\r\n\r\n"
                + ":\n"
                + "id: 2\rdata: line one\rdata: line two\r\r"
                + "data: no id change\n\n"
                + "id: 3\u{0}\ndata: ignored id\n\n"
                + "data: \n\n"
                + "id:\ndata: empty id\r\n\r\n"
                + "data: incomplete at the end").utf8
        )

    @Test("gives the same items for a recorded stream split at every byte offset, and in single bytes")
    func everySplit() throws {
        let whole = try parse([Self.recordedStream])
        #expect(events(whole).count == 5)
        #expect(events(whole).map(\.lastEventID) == ["1", "2", "2", "2", ""])
        for offset in 0...Self.recordedStream.count {
            let split = try parse([Array(Self.recordedStream[..<offset]), Array(Self.recordedStream[offset...])])
            #expect(split == whole, "split at \(offset)")
        }
        for first in stride(from: 0, to: Self.recordedStream.count, by: 7) {
            for second in stride(from: first, to: Self.recordedStream.count, by: 11) {
                let chunks = [
                    Array(Self.recordedStream[..<first]), Array(Self.recordedStream[first..<second]),
                    Array(Self.recordedStream[second...]),
                ]
                #expect(try parse(chunks) == whole, "split at \(first) and \(second)")
            }
        }
        #expect(try parse(Self.recordedStream.map { [$0] }) == whole)
    }
}
