/// The part of a request before its body.
struct HTTPRequestHead: Sendable {
    var method: String
    var target: String
    var headers: [(name: String, value: String)]
    /// The bytes the head took, blank line included.
    var length: Int
}
