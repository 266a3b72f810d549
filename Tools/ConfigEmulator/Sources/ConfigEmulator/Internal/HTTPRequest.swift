internal import Foundation

/// A request as read from a connection.
struct HTTPRequest: Sendable {
    var method: String
    /// The target's path, without the query.
    var path: String
    /// The query items, by name.
    var query: [String: String]
    /// The header fields in the order sent, names as sent.
    var headers: [(name: String, value: String)]
    var body: Data

    /// The value of a header field, case-insensitively; repeated fields are joined with `, `.
    func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
