@_spi(Internal) import ConfigModel
import Foundation
import Testing

/// Keys are equal only when their bytes are (issue 43, item 6).
@Suite("Exact keys", .timeLimit(.minutes(1)))
struct ExactKeyTests {
    /// Pairs `String` holds equal with different bytes: a decomposition, singletons equivalent to an ASCII
    /// letter (KELVIN SIGN, GREEK QUESTION MARK, GREEK VARIA) and to a letter of another script (ANGSTROM SIGN,
    /// OHM SIGN), two spaces of the same length in UTF-8 (EN QUAD and EN SPACE), a Hangul syllable and its jamo,
    /// and marks in another order.
    static let equivalentPairs = [
        ("caf\u{E9}", "cafe\u{301}"),
        ("K", "\u{212A}"),
        ("flag-K", "flag-\u{212A}"),
        (";", "\u{37E}"),
        ("`", "\u{1FEF}"),
        ("\u{C5}", "\u{212B}"),
        ("\u{3A9}", "\u{2126}"),
        ("\u{2002}", "\u{2000}"),
        ("\u{D55C}", "\u{1112}\u{1161}\u{11AB}"),
        ("a\u{301}\u{323}", "a\u{323}\u{301}"),
    ]

    @Test("equivalent spellings are different keys, and hash apart in a dictionary", arguments: equivalentPairs)
    func equivalentSpellingsDiffer(pair: (String, String)) {
        #expect(pair.0 == pair.1)
        let (first, second) = (ExactKey(pair.0), ExactKey(pair.1))
        #expect(first != second)
        let table = [first: 1, second: 2]
        #expect(table.count == 2)
        #expect(table[ExactKey(pair.0)] == 1)
        #expect(table[ExactKey(pair.1)] == 2)
    }

    @Test("the same bytes are the same key", arguments: ["", "dark-mode", "caf\u{E9}", "\u{212A}"])
    func sameBytesAreEqual(name: String) {
        let copy = String(decoding: Array(name.utf8), as: UTF8.self)
        #expect(ExactKey(name) == ExactKey(copy))
        #expect(ExactKey(name).hashValue == ExactKey(copy).hashValue)
    }

    @Test("keys sort as String sorts them, spellings String holds equal by their bytes; sortedNames agrees")
    func sorting() {
        let keys = ["b", "\u{212A}", "a", "caf\u{E9}", "cafe\u{301}", "K", "A", "caf\u{E9}"].map { ExactKey($0) }
        let sorted = ["A", "K", "\u{212A}", "a", "b", "cafe\u{301}", "caf\u{E9}", "caf\u{E9}"]
        #expect(keys.sorted().names.map { Array($0.utf8) } == sorted.map { Array($0.utf8) })
        #expect(ExactKey.sortedNames(keys).map { Array($0.utf8) } == sorted.map { Array($0.utf8) })
        #expect(ExactKey.sortedNames(keys.reversed()).map { Array($0.utf8) } == sorted.map { Array($0.utf8) })
    }
}
