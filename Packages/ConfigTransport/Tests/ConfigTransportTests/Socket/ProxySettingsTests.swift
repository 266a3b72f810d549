#if canImport(Glibc)  // The socket client is compiled for Linux alone.
@testable import ConfigTransport
import Foundation
import Testing

/// The proxies read from an environment given to the test, never the process's own (tests run in parallel).
@Suite("Proxy settings from the environment", .timeLimit(.minutes(1)))
struct ProxySettingsTests {
    private static let httpsURL = URL(string: "https://config.example.com/v1/stream")!
    private static let httpURL = URL(string: "http://config.example.com:8080/v1/stream")!

    /// The proxy that a request to `url` goes through, or `nil` when it goes directly.
    private static func proxy(_ environment: [String: String], for url: URL = httpsURL) -> ProxySettings.Proxy? {
        if case .proxy(let proxy) = ProxySettings(environment: environment).route(for: url) { return proxy }
        return nil
    }

    @Test("no variable, no proxy")
    func none() {
        #expect(ProxySettings(environment: [:]) == .none)
        #expect(ProxySettings(environment: [:]).route(for: Self.httpsURL) == .direct)
        #expect(ProxySettings.none.route(for: Self.httpURL) == .direct)
    }

    @Test("https reads https_proxy, then HTTPS_PROXY, then all_proxy, then ALL_PROXY; an empty one counts as unset")
    func httpsOrder() {
        let all: [String: String] = [
            "https_proxy": "lower:1", "HTTPS_PROXY": "upper:2", "all_proxy": "all:3", "ALL_PROXY": "ALL:4",
            "http_proxy": "plain:5",
        ]
        #expect(Self.proxy(all)?.host == "lower")
        #expect(Self.proxy(all.merging(["https_proxy": ""]) { $1 })?.host == "upper")
        #expect(Self.proxy(all.filter { $0.key != "https_proxy" && $0.key != "HTTPS_PROXY" })?.host == "all")
        #expect(Self.proxy(["ALL_PROXY": "ALL:4", "all_proxy": " "])?.variable == "ALL_PROXY")
        #expect(Self.proxy(["http_proxy": "plain:5"]) == nil)
    }

    @Test("http reads http_proxy, then HTTP_PROXY, then all_proxy; HTTP_PROXY is ignored under CGI (REQUEST_METHOD)")
    func httpOrder() {
        #expect(Self.proxy(["http_proxy": "lower", "HTTP_PROXY": "upper"], for: Self.httpURL)?.host == "lower")
        #expect(Self.proxy(["HTTP_PROXY": "upper", "all_proxy": "all"], for: Self.httpURL)?.host == "upper")
        let cgi = ["HTTP_PROXY": "attacker.example", "REQUEST_METHOD": "GET"]
        #expect(Self.proxy(cgi, for: Self.httpURL) == nil)
        #expect(Self.proxy(cgi.merging(["all_proxy": "all"]) { $1 }, for: Self.httpURL)?.host == "all")
        #expect(Self.proxy(cgi.merging(["http_proxy": "lower"]) { $1 }, for: Self.httpURL)?.host == "lower")
        #expect(Self.proxy(["https_proxy": "secure"], for: Self.httpURL) == nil)
    }

    @Test("a value with or without http://, the port 1080 by default, an IPv6 host without brackets")
    func values() throws {
        let bare = try #require(Self.proxy(["https_proxy": "proxy.corp"]))
        #expect(bare == .init(host: "proxy.corp", port: 1080, authorization: nil, variable: "https_proxy"))
        #expect(bare.redactedText == "http://proxy.corp:1080")
        let full = try #require(Self.proxy(["HTTPS_PROXY": "HTTP://proxy.corp:3128/"]))
        #expect(full == .init(host: "proxy.corp", port: 3128, authorization: nil, variable: "HTTPS_PROXY"))
        let v6 = try #require(Self.proxy(["https_proxy": "http://[::1]:3128"]))
        #expect(v6.host == "::1")
        #expect(v6.redactedText == "http://[::1]:3128")
    }

    @Test("credentials are percent-decoded into a Basic Proxy-Authorization, and redacted from the proxy's text")
    func credentials() throws {
        let proxy = try #require(Self.proxy(["https_proxy": "http://al%40ice:p%3Ass%20w@proxy.corp:3128"]))
        let encoded = try #require(proxy.authorization?.dropFirst("Basic ".count))
        let decoded = String(decoding: try #require(Data(base64Encoded: String(encoded))), as: UTF8.self)
        #expect(proxy.authorization?.hasPrefix("Basic ") == true)
        #expect(decoded == "al@ice:p:ss w")
        #expect(proxy.redactedText == "http://***@proxy.corp:3128")
        let userOnly = try #require(Self.proxy(["https_proxy": "bob@proxy.corp"]))
        #expect(userOnly.authorization == "Basic " + Data("bob:".utf8).base64EncodedString())
    }

    @Test(
        "a proxy with another scheme than http:// is not used: requests go directly, and the reason names the scheme",
        arguments: ["https://proxy.corp:443", "socks5://proxy.corp:1080", "SOCKS5H://proxy.corp"]
    )
    func unsupportedScheme(value: String) throws {
        let route = ProxySettings(environment: ["https_proxy": value]).route(for: Self.httpsURL)
        guard case .unsupported(let reason) = route else {
            Issue.record("expected an unsupported route, got \(route)")
            return
        }
        let scheme = value.prefix { $0 != ":" }.lowercased()
        #expect(reason.contains("\(scheme)://"))
        #expect(reason.contains("https_proxy"))
        #expect(!reason.contains("proxy.corp"))
    }

    @Test("no_proxy, then NO_PROXY, sends matching hosts directly, by the request's port (its scheme's by default)")
    func noProxy() {
        let proxied = ["https_proxy": "proxy.corp:3128", "http_proxy": "proxy.corp:3128"]
        func route(_ noProxy: [String: String], _ url: String) -> ProxySettings.Route {
            ProxySettings(environment: proxied.merging(noProxy) { $1 }).route(for: URL(string: url)!)
        }
        #expect(route(["no_proxy": "example.com"], "https://config.example.com/") == .direct)
        #expect(route(["NO_PROXY": ".example.com"], "https://config.example.com/") == .direct)
        #expect(route(["no_proxy": "other.test", "NO_PROXY": "example.com"], "https://config.example.com/") != .direct)
        #expect(route(["no_proxy": "example.com:443"], "https://config.example.com/") == .direct)
        #expect(route(["no_proxy": "example.com:443"], "http://config.example.com/") != .direct)
        #expect(route(["no_proxy": "example.com:80"], "http://config.example.com/") == .direct)
        #expect(route(["no_proxy": "*"], "http://10.0.0.1:8080/") == .direct)
        #expect(route(["no_proxy": "10.0.0.0/8"], "http://10.0.0.1:8080/") == .direct)
        #expect(route(["no_proxy": "::1"], "http://[::1]:8080/") == .direct)
        #expect(route(["no_proxy": "example.com"], "https://badexample.com/") != .direct)
    }
}
#endif
