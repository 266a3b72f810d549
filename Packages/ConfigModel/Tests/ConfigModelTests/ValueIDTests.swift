@_spi(Internal) import ConfigModel
import Testing

@Suite("Value ids", .timeLimit(.minutes(1)))
struct ValueIDTests {
    @Test(
        "match the protocol's vectors",
        arguments: [
            ("", "6ve2WrOl3mnciB6WIL2fIa"),
            ("hello", "1MoOW7eqAPjhZeoELVwO9G"),
            (#"{"primaryColor":"blue","cornerRadius":8}"#, "0aJfn8fEPvzqgW7hj44nv0"),
            (String(repeating: "a", count: 600), "5fN8d72HXaUK6VkcOwuKTN"),
        ])
    func vectors(input: String, expected: String) {
        #expect(ValueID(of: input).rawValue == expected)
    }
}
