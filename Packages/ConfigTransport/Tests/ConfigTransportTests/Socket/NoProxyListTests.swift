#if canImport(Glibc)  // The socket client is compiled for Linux alone.
@testable import ConfigTransport
import Testing

/// `NO_PROXY` read with curl's conventions: names and their subdomains, addresses, CIDR ranges, ports, `*`.
@Suite("NO_PROXY list", .timeLimit(.minutes(1)))
struct NoProxyListTests {
    @Test(
        "a name matches itself and its subdomains, with or without a leading dot, without case or trailing dot",
        arguments: ["example.com", ".example.com", "*.example.com", "EXAMPLE.com.", " example.com "]
    )
    func domain(entry: String) {
        let list = NoProxyList(parsing: "other.test, \(entry)")
        #expect(list.matches(host: "example.com", port: 443))
        #expect(list.matches(host: "a.example.com", port: 443))
        #expect(list.matches(host: "A.B.Example.COM.", port: 80))
        #expect(!list.matches(host: "badexample.com", port: 443))
        #expect(!list.matches(host: "example.com.evil.test", port: 443))
        #expect(!list.matches(host: "com", port: 443))
    }

    @Test("entries are separated by commas, spaces or both, and empty ones are ignored")
    func separators() {
        let list = NoProxyList(parsing: " ,a.test  b.test,,\tc.test , ")
        #expect(list.entries.count == 3)
        for host in ["a.test", "b.test", "c.test"] {
            #expect(list.matches(host: host, port: 443))
        }
        #expect(!list.matches(host: "d.test", port: 443))
        #expect(!NoProxyList(parsing: "").matches(host: "a.test", port: 443))
        #expect(!NoProxyList(parsing: " , ").matches(host: "a.test", port: 443))
    }

    @Test("* matches every host, alone or in a list", arguments: ["*", "a.test,*", " * "])
    func all(value: String) {
        let list = NoProxyList(parsing: value)
        #expect(list.matches(host: "config.example", port: 443))
        #expect(list.matches(host: "10.1.2.3", port: 80))
        #expect(list.matches(host: "::1", port: 80))
    }

    @Test("an entry with a port matches that port alone")
    func port() {
        let list = NoProxyList(parsing: "example.com:8443,10.0.0.1:80,[::1]:8080")
        #expect(list.matches(host: "example.com", port: 8443))
        #expect(list.matches(host: "a.example.com", port: 8443))
        #expect(!list.matches(host: "example.com", port: 443))
        #expect(list.matches(host: "10.0.0.1", port: 80))
        #expect(!list.matches(host: "10.0.0.1", port: 443))
        #expect(list.matches(host: "::1", port: 8080))
        #expect(list.matches(host: "[::1]", port: 8080))
        #expect(!list.matches(host: "::1", port: 80))
    }

    @Test("an IP address matches exactly, IPv6 with or without brackets, and never a name")
    func addresses() {
        let list = NoProxyList(parsing: "192.168.1.10,::1,[2001:db8::5]")
        #expect(list.matches(host: "192.168.1.10", port: 443))
        #expect(!list.matches(host: "192.168.1.1", port: 443))
        #expect(!list.matches(host: "192.168.1.100", port: 443))
        #expect(!list.matches(host: "1.192.168.1.10.example", port: 443))
        #expect(list.matches(host: "::1", port: 443))
        #expect(list.matches(host: "0:0:0:0:0:0:0:1", port: 443))
        #expect(list.matches(host: "[::1]", port: 443))
        #expect(list.matches(host: "2001:DB8:0::5", port: 443))
        #expect(!list.matches(host: "2001:db8::6", port: 443))
        // A name entry never matches an address that ends like it, as a suffix of a dotted quad would.
        #expect(!NoProxyList(parsing: "1.10").matches(host: "192.168.1.10", port: 443))
    }

    @Test("a CIDR range matches the addresses in it, IPv4 and IPv6")
    func cidr() {
        let list = NoProxyList(parsing: "10.0.0.0/8, 172.16.0.0/12, ::1/128, fd00::/8, 192.168.0.1/33")
        #expect(list.matches(host: "10.255.3.4", port: 443))
        #expect(!list.matches(host: "11.0.0.1", port: 443))
        #expect(list.matches(host: "172.31.255.255", port: 443))
        #expect(!list.matches(host: "172.32.0.1", port: 443))
        #expect(list.matches(host: "::1", port: 443))
        #expect(!list.matches(host: "::2", port: 443))
        #expect(list.matches(host: "fdab::1", port: 443))
        #expect(!list.matches(host: "fe80::1", port: 443))
        // A prefix longer than the address is not a range: ignored.
        #expect(list.entries.count == 4)
        #expect(!list.matches(host: "192.168.0.1", port: 443))
        // A range never matches a name.
        #expect(!NoProxyList(parsing: "0.0.0.0/0").matches(host: "example.com", port: 443))
        #expect(NoProxyList(parsing: "0.0.0.0/0").matches(host: "8.8.8.8", port: 443))
    }
}
#endif
