/// An error the SDK reports: a programming error thrown from an initializer, or a connection
/// failure the client reports without throwing.
///
/// Every ``description`` says what went wrong and what to change.
public enum ConfigDirectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client SDK key is empty or only whitespace.
    case missingClientSDKKey
    /// The custom base URL, quoted as given, has no scheme or no host.
    case invalidBaseURL(String)
    /// Offline values were given while the connection mode is not `.offline`.
    case valuesRequireOfflineMode
    /// An offline value cannot be served.
    /// - Parameters:
    ///   - key: The config key of the value.
    ///   - reason: Why the value cannot be served, such as `a JSON value must be an array or an object`.
    case invalidOfflineValue(key: String, reason: String)
    /// The service refused the connection with a status that retrying cannot fix, so the client
    /// stopped connecting.
    /// - Parameters:
    ///   - message: What the service or the transport said.
    ///   - statusCode: The HTTP status, when there was a response.
    case connectionFailed(message: String, statusCode: Int?)

    /// What went wrong and what to fix.
    public var description: String {
        switch self {
        case .missingClientSDKKey:
            "The client SDK key is blank. Pass the client SDK key of your environment, found under 'SDK keys' "
                + "in the ConfigDirector dashboard, or use the .offline connection mode to run without the service."
        case .invalidBaseURL(let url):
            "The base URL '\(url)' is not absolute: give a URL with a scheme and a host, such as "
                + "https://proxy.example.com/configdirector, or leave baseURL nil to use ConfigDirector's service."
        case .valuesRequireOfflineMode:
            "Values were given in the options but the connection mode is not .offline. Served values are "
                + "only for offline mode: set the connection mode to .offline or remove the values."
        case .invalidOfflineValue(let key, let reason):
            "The offline value for the key '\(key)' cannot be served: \(reason). Change or remove that value."
        case .connectionFailed(let message, let statusCode):
            (statusCode.map { "ConfigDirector refused the connection with status \($0): " }
                ?? "ConfigDirector refused the connection: ") + message
                + ". The client does not retry: check the client SDK key and the base URL. Until then it keeps "
                + "serving the values it has."
        }
    }
}
