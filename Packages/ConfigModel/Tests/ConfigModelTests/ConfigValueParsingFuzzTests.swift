@_spi(Internal) import ConfigModel
import Foundation
import TestSupport
import Testing

@Suite("Reading random text as config values", .timeLimit(.minutes(1)))
struct ConfigValueParsingFuzzTests {
    private static let alphabet = Array("0123456789+-.eE xXinfaINFAtrueTRUE_,")

    /// §8's number grammar, written independently of the SDK: optional sign, digits with an optional
    /// fraction (at least one digit in all), optional exponent.
    private static let decimalNumber = try! NSRegularExpression(
        pattern: #"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"#
    )

    private static func isDecimalNumber(_ text: String) -> Bool {
        decimalNumber.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test("accepts as a number exactly the finite decimal numbers, and reads booleans only from true and false")
    func randomText() {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let text = String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! })

            let expectedDouble = Self.isDecimalNumber(text) ? Double(text).flatMap { $0.isFinite ? $0 : nil } : nil
            #expect(Double(configValue: text) == expectedDouble, "\(text.debugDescription)")
            if let integer = Int(configValue: text) {
                let double = Double(configValue: text)
                #expect(double != nil, "\(text.debugDescription) read as an Int but not as a Double")
                if let double, abs(double) < 1e15 { #expect(integer == Int(double.rounded(.towardZero))) }
            }
            let expectedBool: Bool? =
                switch text.lowercased() {
                case "true": true
                case "false": false
                default: nil
                }
            #expect(Bool(configValue: text) == expectedBool, "\(text.debugDescription)")
        }
    }
}
