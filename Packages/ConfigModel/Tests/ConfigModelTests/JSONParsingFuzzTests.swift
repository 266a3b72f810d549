@_spi(Internal) import ConfigModel
import TestSupport
import Testing

@Suite("Parsing hostile JSON text", .timeLimit(.minutes(1)))
struct JSONParsingFuzzTests {
    private static let seeds = [
        #"{"a":[1,2.5,-0,1e3,"x\n\u00e9\uD83D\uDE00"],"b":{"c":null,"d":true,"e":false},"f":""}"#,
        #"[[[[[]]]],{},{"k":{"k":{"k":[0.1,-2E-2]}}}]"#,
        #""\\\"\/\b\f\n\r\t""#,
        "  -9223372036854775808  ",
        #"{"dark-mode":{"id":"c1","key":"dark-mode","type":"boolean","value":"true","valueId":"on"}}"#,
    ]

    /// Bytes that make the parser take its interesting branches.
    private static let alphabet = Array(#"{}[]:,"\/bfnrtu0123456789-+.eEaxlsDdFf "#.utf8) + [0x00, 0x0A, 0x1F, 0x7F]

    @Test("never crashes on mutated or random input, and what it accepts survives a round trip")
    func mutatedInput() throws {
        var generator = SplitMix64(seed: 0x00C0_FFEE)
        var accepted = 0
        for iteration in 0..<4_000 {
            let bytes: [UInt8]
            if iteration % 4 == 0 {
                bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                    Self.alphabet.randomElement(using: &generator)!
                }
            } else {
                bytes = Self.mutate(Array(Self.seeds.randomElement(using: &generator)!.utf8), using: &generator)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let value = try? JSONValue(parsing: text) else { continue }
            accepted += 1
            let reparsed = try JSONValue(parsing: value.jsonText)
            #expect(reparsed == value, "round trip of \(text.debugDescription)")
        }
        // Mutations that keep the text valid must happen, or the round-trip check proves nothing.
        #expect(accepted > 100)
    }

    private static func mutate(_ input: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where !bytes.isEmpty: bytes.remove(at: index)
            case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: index)
            case 2 where !bytes.isEmpty: bytes[index] = alphabet.randomElement(using: &generator)!
            case 3 where !bytes.isEmpty:
                let end = Int.random(in: index...bytes.count, using: &generator)
                bytes.insert(contentsOf: bytes[index..<end], at: index)
            default: bytes = Array(bytes.prefix(index))
            }
        }
        return bytes
    }
}
