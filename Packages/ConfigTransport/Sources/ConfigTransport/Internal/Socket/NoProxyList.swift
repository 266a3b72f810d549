#if canImport(Glibc)
internal import Foundation
internal import Glibc

/// The hosts that requests reach directly although a proxy is set: `NO_PROXY` (or `no_proxy`), read with curl's
/// conventions (7.86 and newer).
///
/// Entries are separated by commas or whitespace; an empty entry is ignored. An entry `*` sends every request
/// directly (curl honours it only as the whole value; it is honoured anywhere in the list here, as Go does). A
/// name matches itself and its subdomains: `example.com` and `.example.com` (and `*.example.com`) both match
/// `example.com` and `a.example.com`, never `badexample.com`; names are compared without case and without a
/// trailing dot. An IP address (IPv4, or IPv6 with or without brackets) matches that address exactly, and a
/// CIDR range (`10.0.0.0/8`, `::1/128`) every address in it; neither matches a name, and a name entry never
/// matches an address (no host is resolved to decide). An entry with a port (`example.com:8443`,
/// `[::1]:8443`, `10.0.0.1:80`) matches that port alone. An entry that is none of these (a bad range, a bad
/// port) is ignored.
struct NoProxyList: Sendable, Hashable {
    /// One entry of the list.
    enum Entry: Sendable, Hashable {
        /// `*`: every host.
        case all
        /// A name and its subdomains, lowercased, without leading or trailing dots; on `port` alone when given.
        case domain(String, port: Int?)
        /// The addresses whose first `prefixLength` bits are those of `address` (4 bytes for IPv4, 16 for
        /// IPv6); on `port` alone when given.
        case addresses([UInt8], prefixLength: Int, port: Int?)
    }

    /// The entries, in the order written.
    let entries: [Entry]

    /// A list with no entry: every request goes through the proxy.
    static let empty = NoProxyList(entries: [])

    /// Creates a list of `entries`.
    init(entries: [Entry]) {
        self.entries = entries
    }

    /// Parses the value of `NO_PROXY`.
    /// - Parameter value: The variable's value.
    init(parsing value: String) {
        entries = value.split(whereSeparator: { $0 == "," || $0.isWhitespace }).compactMap { Self.entry(String($0)) }
    }

    /// Whether a request to `host` on `port` goes directly.
    /// - Parameters:
    ///   - host: The URL's host: a name, or an IP address (an IPv6 one without brackets).
    ///   - port: The port the request goes to, the scheme's default when the URL has none.
    /// - Returns: `true` when an entry matches.
    func matches(host: String, port: Int) -> Bool {
        guard !entries.isEmpty else { return false }
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix(".") { name.removeLast() }
        let address = Self.address(name)
        return entries.contains { entry in
            switch entry {
            case .all:
                return true
            case .domain(let domain, let entryPort):
                guard address == nil, entryPort == nil || entryPort == port else { return false }
                return name == domain || name.hasSuffix("." + domain)
            case .addresses(let network, let prefixLength, let entryPort):
                guard let address, address.count == network.count, entryPort == nil || entryPort == port else {
                    return false
                }
                return Self.prefix(of: address, equals: network, length: prefixLength)
            }
        }
    }

    // MARK: Parsing

    /// The entry that `text` writes, or `nil` when it is not one.
    private static func entry(_ text: String) -> Entry? {
        if text == "*" { return .all }
        var rest = text.lowercased()
        // A CIDR range: an address, a slash, a prefix length; no port.
        if let slash = rest.firstIndex(of: "/") {
            var base = String(rest[..<slash])
            if base.hasPrefix("["), base.hasSuffix("]") { base = String(base.dropFirst().dropLast()) }
            guard let network = address(base), let length = Int(rest[rest.index(after: slash)...]),
                (0...network.count * 8).contains(length)
            else { return nil }
            return .addresses(network, prefixLength: length, port: nil)
        }
        var port: Int?
        if rest.hasPrefix("[") {
            // `[IPv6]` or `[IPv6]:port`.
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = validPort(after.dropFirst()) else { return nil }
                port = number
            }
            rest = String(rest[rest.index(after: rest.startIndex)..<close])
        } else if rest.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
            // `name:port` or `IPv4:port`; an IPv6 address without brackets has several colons, and no port.
            guard let number = validPort(rest[rest.index(after: colon)...]) else { return nil }
            port = number
            rest = String(rest[..<colon])
        }
        if let address = address(rest) {
            return .addresses(address, prefixLength: address.count * 8, port: port)
        }
        if rest.hasPrefix("*.") { rest.removeFirst(2) }
        while rest.hasPrefix(".") { rest.removeFirst() }
        while rest.hasSuffix(".") { rest.removeLast() }
        guard !rest.isEmpty, !rest.contains(":") else { return nil }
        return .domain(rest, port: port)
    }

    /// The port that `text` writes, when it is one (1 to 65,535).
    private static func validPort(_ text: Substring) -> Int? {
        guard let number = Int(text), (1...65_535).contains(number) else { return nil }
        return number
    }

    /// The bytes of the IP address that `text` writes (4 for IPv4, 16 for IPv6), or `nil` when it is a name.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// Whether the first `length` bits of `address` and `network` are equal.
    private static func prefix(of address: [UInt8], equals network: [UInt8], length: Int) -> Bool {
        var remaining = length
        for (left, right) in zip(address, network) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            guard left & mask == right & mask else { return false }
            remaining -= bits
        }
        return true
    }
}
#endif
