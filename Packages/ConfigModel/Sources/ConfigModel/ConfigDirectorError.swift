public import Foundation

/// An error the SDK reports: a programming error thrown from an initializer, or a connection
/// failure the client reports without throwing.
///
/// Its `localizedDescription` says what went wrong and what to change.
public enum ConfigDirectorError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// No client SDK key was given: the key is empty or only whitespace.
    case missingClientSDKKey
    /// The custom base URL is not absolute: it has no scheme or no host.
    case invalidBaseURL(URL)
    /// Offline values were given while the connection mode is not `.offline`.
    case valuesRequireOfflineMode
    /// An offline value cannot be served.
    /// - Parameters:
    ///   - key: The config key of the value.
    ///   - reason: Why the value cannot be served, such as `the key is blank`.
    case invalidOfflineValue(key: String, reason: String)
    /// The bundled values cannot be served: their file is missing or malformed, or a value given in
    /// code cannot be served.
    /// - Parameters:
    ///   - file: The path of the file, or `nil` for values given in code.
    ///   - reason: What is wrong, with the line and column in a file, such as
    ///     `invalid JSON at line 3, column 7 (byte 42): expected a value`.
    case invalidBundledValues(file: String?, reason: String)
    /// The service refused the connection with a status that retrying cannot fix, so the client
    /// stopped connecting.
    /// - Parameters:
    ///   - message: What the service or the transport said.
    ///   - statusCode: The HTTP status, when there was a response.
    case connectionFailed(message: String, statusCode: Int?)

    /// What went wrong and what to fix; `connectionFailed` is its message followed by ` (HTTP <code>)`.
    public var errorDescription: String? {
        switch self {
        case .missingClientSDKKey:
            "No client SDK key was given, and the client cannot be created without one. Pass the client SDK "
                + "key of your environment, found under 'SDK keys' in the ConfigDirector dashboard, or use the "
                + ".offline connection mode to run without the service."
        case .invalidBaseURL(let url):
            "The base URL must be absolute, with a scheme and a host: '\(url.redactedText)' is not. "
                + "Leave baseURL nil to use ConfigDirector's service."
        case .valuesRequireOfflineMode:
            "Values were given in the options but the connection mode is not .offline. Served values are "
                + "only for offline mode: set the connection mode to .offline or remove the values."
        case .invalidOfflineValue(let key, let reason):
            "The offline value for the key '\(key)' cannot be served: \(reason). Change or remove that value."
        case .invalidBundledValues(let file?, let reason):
            "The bundled values file '\(file)' cannot be served: \(reason). Fix the file or export it again."
        case .invalidBundledValues(nil, let reason):
            "The bundled values cannot be served: \(reason). Change or remove that value."
        case .connectionFailed(let message, let statusCode):
            statusCode.map { "\(message) (HTTP \($0))" } ?? message
        }
    }

    /// The same text as ``errorDescription``.
    public var description: String { errorDescription ?? "" }
}

extension ConfigDirectorError {
    /// The HTTP status of a refused connection, when there was a response.
    @_spi(Internal) public var refusedStatusCode: Int? {
        if case .connectionFailed(_, let statusCode) = self { return statusCode }
        return nil
    }
}
