#if canImport(Glibc)
internal import Foundation

/// The HTTP proxies that the socket client goes through, read from the environment as curl reads it.
///
/// - `https` requests: `https_proxy`, else `HTTPS_PROXY`, else `all_proxy`, else `ALL_PROXY`.
/// - `http` requests: `http_proxy`, else `HTTP_PROXY`, else `all_proxy`, else `ALL_PROXY`. `HTTP_PROXY` is
///   ignored while `REQUEST_METHOD` is set: in a CGI program, a request's `Proxy:` header arrives as
///   `HTTP_PROXY` ("httpoxy"), so a client could choose the proxy (Go's rule; curl never reads `HTTP_PROXY`).
/// - An empty variable counts as unset, and the next one is read (curl's `curl_getenv` does the same).
/// - A value is a URL, `http://user:password@proxy.example:3128`, or without its scheme, `proxy.example:3128`;
///   without a port, the port is 1080 (curl's default). Only `http://` proxies are supported: a value with
///   another scheme (`https://`, `socks5://`, ...) or without a host is not used, requests go directly, and the
///   client logs a warning that names the variable and the scheme. The user and password, percent-decoded, go
///   to the proxy alone as `Proxy-Authorization: Basic`.
/// - `no_proxy`, else `NO_PROXY`: the hosts that are reached directly (``NoProxyList``).
struct ProxySettings: Sendable, Hashable {
    /// An HTTP proxy, from one variable of the environment.
    struct Proxy: Sendable, Hashable {
        /// The proxy's host: a name, or an IP address (an IPv6 one without brackets).
        let host: String
        /// The proxy's port.
        let port: Int
        /// The `Proxy-Authorization` value (`Basic` and the user and password in base 64), when the URL has a user.
        let authorization: String?
        /// The variable it was read from, `https_proxy` say.
        let variable: String

        /// The proxy for a log line: its scheme, host and port, its credentials written `***`.
        var redactedText: String {
            let hostText = host.contains(":") ? "[\(host)]" : host
            return "http://\(authorization == nil ? "" : "***@")\(hostText):\(port)"
        }
    }

    /// Where requests go: for one request, or for every request of a scheme that `no_proxy` does not match.
    enum Route: Sendable, Hashable {
        /// Straight to the URL's host.
        case direct
        /// Through `Proxy`.
        case proxy(Proxy)
        /// Straight to the URL's host, because the variable that sets a proxy holds one that is not supported;
        /// the text says why, for a warning.
        case unsupported(String)
    }

    /// The route of `http` requests.
    let http: Route
    /// The route of `https` requests.
    let https: Route
    /// The hosts reached directly.
    let noProxy: NoProxyList

    /// No proxy: every request goes directly.
    static let none = ProxySettings(http: .direct, https: .direct, noProxy: .empty)

    /// The default proxy port, as curl's.
    static let defaultPort = 1080

    /// Creates settings from their parts.
    init(http: Route, https: Route, noProxy: NoProxyList) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// Reads the settings from an environment.
    /// - Parameter environment: The variables; the process's own by default.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func value(_ names: [String]) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                    return (name, value)
                }
            }
            return nil
        }
        let isCGI = !(environment["REQUEST_METHOD"] ?? "").isEmpty
        let httpNames = ["http_proxy"] + (isCGI ? [] : ["HTTP_PROXY"]) + ["all_proxy", "ALL_PROXY"]
        let httpsNames = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        http = value(httpNames).map { Self.route(parsing: $0.value, from: $0.name) } ?? .direct
        https = value(httpsNames).map { Self.route(parsing: $0.value, from: $0.name) } ?? .direct
        noProxy = value(["no_proxy", "NO_PROXY"]).map { NoProxyList(parsing: $0.value) } ?? .empty
    }

    /// Where a request to `url` goes.
    /// - Parameter url: The request's URL.
    /// - Returns: ``Route/direct`` for a scheme but `http` and `https`, when no proxy is set for the scheme, or
    ///   when `noProxy` matches the host; else the proxy, or why it is not used.
    func route(for url: URL) -> Route {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true), let host = components.host,
            !host.isEmpty
        else { return .direct }
        let route: Route
        let defaultPort: Int
        switch components.scheme?.lowercased() {
        case "http": (route, defaultPort) = (http, 80)
        case "https": (route, defaultPort) = (https, 443)
        default: return .direct
        }
        guard route != .direct, !noProxy.matches(host: host, port: components.port ?? defaultPort) else {
            return .direct
        }
        return route
    }

    /// The proxy that `text`, the value of `variable`, sets, or why it cannot be used.
    static func route(parsing text: String, from variable: String) -> Route {
        let url = text.contains("://") ? text : "http://" + text
        let scheme = String(url[..<url.range(of: "://")!.lowerBound]).lowercased()
        guard scheme == "http" else {
            return .unsupported(
                "\(variable) names a \(scheme):// proxy, which the SDK does not support (only http:// proxies are): "
                    + "requests go directly."
            )
        }
        guard let components = URLComponents(string: url), var host = components.host, !host.isEmpty else {
            return .unsupported("\(variable) is not a proxy URL with a host: requests go directly.")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? defaultPort
        guard (1...65_535).contains(port) else {
            return .unsupported("\(variable) names a proxy with port \(port), out of range: requests go directly.")
        }
        var authorization: String?
        if let user = components.percentEncodedUser {
            let decodedUser = user.removingPercentEncoding ?? user
            let password = components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 } ?? ""
            authorization = "Basic " + Data("\(decodedUser):\(password)".utf8).base64EncodedString()
        }
        return .proxy(Proxy(host: host, port: port, authorization: authorization, variable: variable))
    }
}
#endif
