public import Foundation

/// The HTTP layer the transports drive: one request at a time per exchange, streamed back in parts.
///
/// The SDK's implementation is a `URLSession` with a data delegate, except on Linux, where `http` and (with the
/// system's OpenSSL, loaded at run time) `https` go over POSIX sockets: swift-corelibs-foundation's `URLSession`
/// spins a core while a response stays open. Tests give a scripted one so that every status path is covered
/// without sockets.
@_spi(Testing) public protocol HTTPClient: Sendable {
    /// Starts a request.
    /// - Parameter request: The request.
    /// - Returns: The exchange: its response parts, and a way to cancel it.
    func start(_ request: HTTPRequest) -> HTTPExchange

    /// Cancels every exchange and releases the client for good.
    func shutdown()
}

/// A request as the transports build it.
@_spi(Testing) public struct HTTPRequest: Sendable, Hashable {
    /// The URL.
    public var url: URL
    /// The method, such as `POST`.
    public var method: String
    /// The header fields, by name as sent.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// How long the request may go without receiving anything, in seconds; `.infinity` for no limit.
    public var timeout: Double

    /// Creates a request.
    /// - Parameters:
    ///   - url: The URL.
    ///   - method: The method.
    ///   - headers: The header fields.
    ///   - body: The body.
    ///   - timeout: The idle timeout, in seconds; `.infinity` for none.
    public init(url: URL, method: String = "POST", headers: [String: String], body: Data, timeout: Double) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The status and header fields of a response.
@_spi(Testing) public struct HTTPResponseHead: Sendable, Hashable {
    /// The status code.
    public var statusCode: Int
    /// The header fields, by lowercased name.
    public var headers: [String: String]

    /// Creates a response head.
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: The header fields; names are lowercased.
    public init(statusCode: Int, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The value of a header field, by name in any case.
    /// - Parameter name: The field's name.
    /// - Returns: The value, or `nil`.
    public func value(forHeader name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// A part of a response, in the order it arrives: the head once, then body chunks.
@_spi(Testing) public enum HTTPResponsePart: Sendable, Hashable {
    /// The status and header fields.
    case head(HTTPResponseHead)
    /// The next bytes of the body.
    case body(Data)
}

/// A started request: its response parts, ending when the response ends, or throwing the network error.
@_spi(Testing) public struct HTTPExchange: Sendable {
    /// The response's parts; the stream finishes when the body is complete and throws on a network error.
    public let parts: AsyncThrowingStream<HTTPResponsePart, any Error>
    /// Cancels the request; the parts stream ends.
    public let cancel: @Sendable () -> Void

    /// Creates an exchange.
    /// - Parameters:
    ///   - parts: The response's parts.
    ///   - cancel: Cancels the request.
    public init(parts: AsyncThrowingStream<HTTPResponsePart, any Error>, cancel: @escaping @Sendable () -> Void) {
        self.parts = parts
        self.cancel = cancel
    }
}
