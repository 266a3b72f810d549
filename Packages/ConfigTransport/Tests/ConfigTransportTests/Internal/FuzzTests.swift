@_spi(Internal) import ConfigModel
@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation
import TestSupport
import Testing

/// Seeded, bounded fuzzing: the parser and the decoder never crash, hang, or hold more than their limit.
@Suite("Fuzzing", .timeLimit(.minutes(1)))
struct FuzzTests {
    private static let limit = 4096

    private static func mutate(_ bytes: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        let interesting: [UInt8] = [
            0x0A, 0x0D, 0x3A, 0x20, 0x00, 0xEF, 0xBB, 0xBF, 0xF0, 0x9F, 0x80, 0xFF, 0x22, 0x7B, 0x7D,
        ]
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
            guard !bytes.isEmpty else { break }
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: bytes[index] = interesting.randomElement(using: &generator)!
            case 1: bytes.remove(at: index)
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
            case 3: bytes.insert(contentsOf: bytes[index...].prefix(16), at: index)
            default: bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
        }
        return bytes
    }

    /// Feeds `bytes` in random chunks; returns the items, or nil when the parser refused the stream.
    private static func parse(_ bytes: [UInt8], using generator: inout SplitMix64) -> [SSEItem]? {
        var parser = SSEParser(maxEventSize: limit)
        var items: [SSEItem] = []
        var offset = 0
        while offset < bytes.count {
            let length = Int.random(in: 1...64, using: &generator)
            let end = min(bytes.count, offset + length)
            do {
                items += try parser.feed(bytes[offset..<end])
            } catch {
                return nil
            }
            offset = end
        }
        return items
    }

    @Test("random bytes and mutated recorded streams never crash the parser or exceed its limit")
    func parser() {
        var generator = SplitMix64(seed: 0x5EED)
        for iteration in 0..<3000 {
            let bytes: [UInt8]
            if iteration % 3 == 0 {
                bytes = (0..<Int.random(in: 0...512, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                bytes = Self.mutate(SSEParserTests.recordedStream, using: &generator)
            }
            guard let items = Self.parse(bytes, using: &generator) else { continue }
            for case .event(let event) in items {
                #expect(!event.data.isEmpty)
                #expect(event.data.utf8.count <= Self.limit)
                #expect(!(event.lastEventID?.contains("\u{0}") ?? false))
            }
        }
    }

    @Test("a stream far past the limit is refused early, whatever its shape")
    func endless() {
        var generator = SplitMix64(seed: 99)
        for _ in 0..<50 {
            let line: [UInt8] =
                Bool.random(using: &generator) ? Array("data: xxxxxxxx\n".utf8) : Array("xxxxxxxxxxxxxxxx".utf8)
            var parser = SSEParser(maxEventSize: Self.limit)
            var fed = 0
            var refused = false
            while fed < Self.limit * 4 {
                do {
                    _ = try parser.feed(line)
                } catch {
                    refused = true
                    break
                }
                fed += line.count
            }
            #expect(refused)
            #expect(fed < Self.limit * 2, "refused before twice the limit went by")
        }
    }

    @Test("mutated config-set payloads decode or fail cleanly")
    func configSetDecoding() throws {
        var generator = SplitMix64(seed: 0xC0FFEE)
        let seeds = [
            Fixtures.fullSetJSON, Fixtures.deltaSetJSON, "{\"configs\":{\"a\":{\"value\":1.5},\"b\":[1],\"c\":null}}",
        ]
        var decoded = 0
        for _ in 0..<3000 {
            let seed = Array(seeds.randomElement(using: &generator)!.utf8)
            let bytes = Self.mutate(seed, using: &generator)
            if let set = try? JSONDecoder().decode(ConfigSet.self, from: Data(bytes)) {
                decoded += 1
                let reencoded = try JSONEncoder().encode(set)
                #expect(try JSONDecoder().decode(ConfigSet.self, from: reencoded) == set)
            }
        }
        #expect(decoded > 0, "the mutations leave some payloads valid")
    }
}
