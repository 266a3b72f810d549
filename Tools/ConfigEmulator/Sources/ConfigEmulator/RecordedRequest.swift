public import Foundation

/// A request the emulator received on any path but `/admin/…`, as it arrived.
public struct RecordedRequest: Sendable, Hashable, Codable {
    /// The request method, such as `POST`.
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The header fields, names in lowercase; a repeated field's values are joined with `, `.
    public var headers: [String: String]
    /// The body's bytes.
    public var body: Data
    /// When the request's head was read.
    public var receivedAt: Date

    /// Creates a recorded request.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path.
    ///   - headers: The header fields, lowercase names.
    ///   - body: The body.
    ///   - receivedAt: When it arrived.
    public init(method: String, path: String, headers: [String: String], body: Data, receivedAt: Date) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.receivedAt = receivedAt
    }

    /// The body as UTF-8 text, with invalid bytes replaced.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    private enum CodingKeys: String, CodingKey {
        case method, path, headers, body, receivedAt
    }

    /// Decodes the admin API's form, where `body` is text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        headers = try container.decode([String: String].self, forKey: .headers)
        body = Data(try container.decode(String.self, forKey: .body).utf8)
        receivedAt = try container.decode(Date.self, forKey: .receivedAt)
    }

    /// Encodes the admin API's form, where `body` is text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encode(headers, forKey: .headers)
        try container.encode(bodyText, forKey: .body)
        try container.encode(receivedAt, forKey: .receivedAt)
    }
}
