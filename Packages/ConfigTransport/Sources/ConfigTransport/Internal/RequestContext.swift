@_spi(Internal) internal import ConfigModel

/// The context a request may carry, and the one error that says when it may not.
///
/// A context whose traits nest deeper than ``ConfigDirectorContext/maximumTraitDepth`` is not encoded
/// (encoding recurses on the thread's stack): the request goes without it, as if no context had been
/// given, and the first such context of the transport is logged as an error, the later ones at debug
/// level, so that reconnects and batches do not repeat the error.
final class RequestContext: Sendable {
    private let logger: any ConfigDirectorLogger
    private let refusal = LogOnce()

    init(logger: any ConfigDirectorLogger) {
        self.logger = logger
    }

    /// `context`, or `nil` when it is too deep to send.
    /// - Parameter purpose: What the request is for, as the log line names it (`streaming`, `telemetry`).
    func sendable(_ context: ConfigDirectorContext?, purpose: String) -> ConfigDirectorContext? {
        guard let context, !context.hasSendableTraitDepth else { return context }
        let message =
            "The context's traits nest deeper than \(ConfigDirectorContext.maximumTraitDepth) levels: "
            + "the \(purpose) request is sent without a context, as if none had been given."
        refusal.log(message, at: .error, to: logger)
        return nil
    }

    /// What an encoding error says, without the value it failed on: an `EncodingError` holds the whole
    /// value encoded, which for a request body includes the SDK key, so it is never logged as such.
    static func summary(of error: any Error) -> String {
        switch error {
        case EncodingError.invalidValue(_, let context):
            "invalid value at \(context.codingPath.count) levels deep: \(context.debugDescription)"
        default:
            "\(type(of: error))"
        }
    }
}
