internal import Foundation

/// A whole response, written at once with a `Content-Length` and `Connection: close`.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: Data = Data()

    /// A JSON response.
    static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }

    /// A JSON error response: `{"error": message}`.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, ["error": message])
    }

    /// The response's bytes.
    var serialized: [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + Array(body)
    }

    /// The head of a streaming response; its body follows in chunks.
    static func streamHead() -> [UInt8] {
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
            + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        return Array(head.utf8)
    }

    /// One chunk of a chunked body; an empty `bytes` would end the body, so callers never pass one.
    static func chunk(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array(String(bytes.count, radix: 16).utf8) + [13, 10] + Array(bytes) + [13, 10]
    }

    /// The last chunk, which ends a chunked body.
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 202: "Accepted"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
