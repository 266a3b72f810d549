internal import Foundation

/// Response bodies made safe to quote: cut short, and with the SDK key removed should the service echo it.
enum ResponseText {
    /// The longest body quoted in an error message (PROTOCOL §5).
    static let errorQuoteLength = 200
    /// The longest body logged at debug level.
    static let debugPreviewLength = 500
    /// The most bytes of an error response's body that are read.
    static let errorBodyReadLimit = 4096
    /// The longest a stream's error body is waited for, in seconds, before the error is reported without it.
    static let errorBodyTimeout = 5.0

    /// The first `length` characters of `body`, with every occurrence of `secret` replaced.
    static func quote(_ body: Data, length: Int, redacting secret: String) -> String {
        var text = String(decoding: body.prefix(length * 4), as: UTF8.self)
        if !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: "<redacted>")
        }
        return String(text.prefix(length))
    }

    /// The message of a fatal status: the service's JSON body cut to 200 characters; the status when the body
    /// is empty; and, when the body is a page of markup (HTML), who answered, not the page.
    static func fatalMessage(statusCode: Int, body: Data, redacting secret: String) -> String {
        let quoted = quote(body, length: errorQuoteLength, redacting: secret)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if quoted.isEmpty { return "the service answered with status \(statusCode)" }
        return isFromTheService(body) ? quoted : "status \(statusCode) " + notFromTheService
    }

    /// What a refusal whose body is not the service's JSON says about who answered.
    static let notFromTheService =
        "was answered by something in front of ConfigDirector (a proxy, captive portal or bot protection), "
        + "not by the service"

    /// Whether `body` may be the service's answer: anything but a page of markup (its first character `<`),
    /// which only a proxy, a captive portal or a bot wall sends.
    static func isFromTheService(_ body: Data) -> Bool {
        body.first(where: { !(9...13).contains($0) && $0 != 32 }) != UInt8(ascii: "<")
    }
}
