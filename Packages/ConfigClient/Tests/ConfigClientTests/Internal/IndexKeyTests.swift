@_spi(Internal) import ConfigModel
import Foundation
import Testing

@testable import ConfigClient

/// The evaluation index's keys are equal only when their bytes are, whichever way each was made: held (checked for
/// ASCII) or looked up (not scanned); the ASCII shortcut never equates two spellings (issue 43, item 6).
@Suite("Keys of the evaluation index", .timeLimit(.minutes(1)))
struct IndexKeyTests {
    /// Pairs `String` holds equal with different bytes, ASCII ones among them (KELVIN SIGN and "K", GREEK QUESTION
    /// MARK and ";"), and two of the same UTF-8 length (EN QUAD and EN SPACE; marks in another order).
    static let equivalentPairs = [
        ("caf\u{E9}", "cafe\u{301}"), ("K", "\u{212A}"), ("flag-K", "flag-\u{212A}"), (";", "\u{37E}"),
        ("\u{2002}", "\u{2000}"), ("a\u{301}\u{323}", "a\u{323}\u{301}"), ("\u{D55C}", "\u{1112}\u{1161}\u{11AB}"),
    ]

    /// The two ways a key is made.
    static let makers: [@Sendable (String) -> IndexKey] = [
        { IndexKey(held: ExactKey($0)) }, { IndexKey(lookingUp: $0) },
    ]

    @Test("equivalent spellings are different keys, however each was made", arguments: equivalentPairs)
    func equivalentSpellingsDiffer(pair: (String, String)) {
        for makeFirst in Self.makers {
            for makeSecond in Self.makers {
                let (first, second) = (makeFirst(pair.0), makeSecond(pair.1))
                #expect(first != second && second != first)
                let table = [IndexKey(held: ExactKey(pair.0)): 1, IndexKey(held: ExactKey(pair.1)): 2]
                #expect(table[first] == 1)
                #expect(table[second] == 2)
            }
        }
    }

    @Test("the same bytes are the same key, however each was made", arguments: ["", "dark-mode", "caf\u{E9}"])
    func sameBytesAreEqual(name: String) {
        let copy = String(decoding: Array(name.utf8), as: UTF8.self)
        for makeFirst in Self.makers {
            for makeSecond in Self.makers {
                #expect(makeFirst(name) == makeSecond(copy))
                #expect(makeFirst(name).hashValue == makeSecond(copy).hashValue)
            }
        }
    }
}
