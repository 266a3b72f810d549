@_spi(Internal) @_spi(Testing) import ConfigTransport
import Foundation

/// What an HTTP exchange delivered, read to its end: the heads, the body and the error it ended with.
struct ExchangeOutcome {
    var heads: [HTTPResponseHead] = []
    var body = Data()
    var error: (any Error)?

    var urlError: URLError? { error as? URLError }
    var urlErrorCode: URLError.Code? { urlError?.code }
    var text: String { String(decoding: body, as: UTF8.self) }

    /// Reads `exchange` to its end; `onPart` sees each part as it arrives, with the body so far.
    static func collect(
        _ exchange: HTTPExchange,
        onPart: (HTTPResponsePart, Data) -> Void = { _, _ in }
    ) async -> ExchangeOutcome {
        var outcome = ExchangeOutcome()
        do {
            for try await part in exchange.parts {
                switch part {
                case .head(let head): outcome.heads.append(head)
                case .body(let data): outcome.body.append(data)
                }
                onPart(part, outcome.body)
            }
        } catch {
            outcome.error = error
        }
        return outcome
    }
}
