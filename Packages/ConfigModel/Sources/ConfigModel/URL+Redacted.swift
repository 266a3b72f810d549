public import Foundation

@_spi(Internal) extension URL {
    /// The URL's text for a log line or an error message: its user info (`user:password@`), which may hold
    /// credentials, written `***@`; the rest as it is.
    public var redactedText: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false),
            components.percentEncodedUser != nil || components.percentEncodedPassword != nil
        else { return absoluteString }
        components.percentEncodedUser = "***"
        components.percentEncodedPassword = nil
        return components.string ?? "a URL with credentials"
    }
}
