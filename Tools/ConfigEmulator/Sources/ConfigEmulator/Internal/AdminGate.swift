internal import Foundation

/// Decides whether a request may reach the dashboard or the admin API: only the developer's own tools,
/// not another web page open in their browser, a DNS-rebinding page, or another machine.
///
/// - A preflight (`OPTIONS`) is refused, and no response carries `Access-Control-Allow-Origin`: a page of
///   another origin can neither send ``headerName`` nor read an answer.
/// - The `Host` must name the emulator by address (or `localhost`) and its own port: a page whose name
///   was rebound to 127.0.0.1 sends its own name.
/// - Every admin request carries ``headerName``: `1`, or the admin token when there is one (the page asks
///   for it once). A cross-origin `fetch` cannot add that header without the refused preflight.
struct AdminGate: Sendable {
    /// The header every admin request carries.
    static let headerName = "X-Emulator-Admin"

    /// The address the emulator listens on.
    var host: String
    /// The admin token required as the header's value, or `nil` for `1`.
    var token: String?

    /// Why a request for the page is refused, or `nil` when it may have it.
    func refusal(forPage request: HTTPRequest, port: Int) -> HTTPResponse? {
        if request.method == "OPTIONS" { return Self.refusePreflight() }
        return hostRefusal(request, port: port)
    }

    /// Why an admin request is refused, or `nil` when it may go on.
    func refusal(forAdmin request: HTTPRequest, port: Int) -> HTTPResponse? {
        if request.method == "OPTIONS" { return Self.refusePreflight() }
        if let refusal = hostRefusal(request, port: port) { return refusal }
        let sent = request.header(Self.headerName)
        guard let token else {
            guard sent == "1" else {
                return .error(403, "admin requests need the header \(Self.headerName): 1")
            }
            return nil
        }
        guard let sent, Self.constantTimeEquals(sent, token) else {
            var response = HTTPResponse.error(
                401, "admin requests need the header \(Self.headerName) with the admin token as its value")
            response.headers.append(("WWW-Authenticate", Self.headerName))
            return response
        }
        return nil
    }

    /// Whether `name` (a `Host` without its port) names this emulator: `localhost`, its own address, or,
    /// when it listens on every interface, any IPv4 address. Any other name may be a rebound one.
    func accepts(hostName name: String) -> Bool {
        let name = name.lowercased()
        if name == "localhost" || name == "127.0.0.1" || name == host.lowercased() { return true }
        return host == "0.0.0.0" && Self.isIPv4Literal(name)
    }

    /// Whether the address is on loopback only (so that no token is needed).
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || (isIPv4Literal(host) && host.hasPrefix("127."))
    }

    private func hostRefusal(_ request: HTTPRequest, port: Int) -> HTTPResponse? {
        guard let value = request.header("Host"), let colon = value.lastIndex(of: ":"),
            accepts(hostName: String(value[..<colon])), value[value.index(after: colon)...] == "\(port)"
        else {
            return .error(403, "the Host header must be this emulator's address and port (127.0.0.1:\(port))")
        }
        return nil
    }

    private static func refusePreflight() -> HTTPResponse {
        .error(403, "cross-origin requests to the emulator's dashboard and admin API are refused")
    }

    private static func isIPv4Literal(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in part.count <= 3 && UInt8(part) != nil }
    }

    private static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
        let left = Array(left.utf8)
        let right = Array(right.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
