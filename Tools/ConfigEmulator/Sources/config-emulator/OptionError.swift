/// A command-line argument that cannot be used.
struct OptionError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
