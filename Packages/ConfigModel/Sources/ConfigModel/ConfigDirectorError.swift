/// An error the SDK reports: a programming error thrown from an initializer, or a connection
/// failure the client reports without throwing.
public enum ConfigDirectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client SDK key is empty or only whitespace.
    case missingClientSDKKey
    /// The custom base URL has no scheme or no host.
    case invalidBaseURL(String)
    /// Offline values were given while the connection mode is not `.offline`.
    case valuesRequireOfflineMode
    /// An offline value cannot be served.
    case invalidOfflineValue(key: String, reason: String)
    /// The service refused the connection and the client stopped retrying.
    case connectionFailed(message: String, statusCode: Int?)

    /// What went wrong and what to fix.
    public var description: String {
        switch self {
        case .missingClientSDKKey:
            "The client SDK key is blank. Copy the client SDK key of your environment from 'SDK keys' in the "
                + "ConfigDirector dashboard, or use ConfigDirectorClient(options:) with the .offline mode."
        case .invalidBaseURL(let url):
            "The base URL '\(url)' is not absolute: give a URL with a scheme and a host, such as "
                + "https://proxy.example.com/configdirector, or leave baseURL nil to use ConfigDirector's service."
        case .valuesRequireOfflineMode:
            "Values were given in the options but the connection mode is not .offline. Served values are "
                + "only for offline mode: set ConnectionOptions(mode: .offline) or remove the values."
        case .invalidOfflineValue(let key, let reason):
            "The offline value for the key '\(key)' cannot be served: \(reason)."
        case .connectionFailed(let message, let statusCode):
            if let statusCode {
                "ConfigDirector refused the connection with status \(statusCode): \(message)"
            } else {
                "ConfigDirector refused the connection: \(message)"
            }
        }
    }
}
