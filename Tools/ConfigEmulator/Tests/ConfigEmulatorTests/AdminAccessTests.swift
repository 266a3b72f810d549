import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import TestSupport
import Testing

/// Only the developer reaches the dashboard and the admin API: no header, a foreign `Host`, a preflight or a
/// missing token are refused, and the client endpoints are as before.
@Suite("Admin access", .timeLimit(.minutes(3)))
struct AdminAccessTests {
    /// Sends one raw request and reads the whole response.
    private func exchange(_ emulator: ConfigEmulator, _ head: String, body: String = "") async throws -> RawConnection {
        let connection = try RawConnection(port: emulator.port)
        let length = body.isEmpty ? "" : "Content-Length: \(body.utf8.count)\r\n"
        connection.send(head + length + "\r\n" + body)
        #expect(await connection.readToEnd(timeout: 10))
        return connection
    }

    @Test("refuses admin requests, reads included, without X-Emulator-Admin: 1, and changes nothing")
    func headerRequired() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let host = "Host: 127.0.0.1:\(emulator.port)\r\n"
            for request in [
                "GET /admin/configs HTTP/1.1\r\n\(host)",
                "GET /admin/events HTTP/1.1\r\n\(host)",
                "GET /admin/health HTTP/1.1\r\n\(host)X-Emulator-Admin: yes\r\n",
            ] {
                #expect(try await exchange(emulator, request).status == 403, "\(request)")
            }
            let put = try await exchange(
                emulator, "PUT /admin/configs/welcome/value HTTP/1.1\r\n\(host)Content-Type: text/plain\r\n",
                body: #""changed""#)
            #expect(put.status == 403)
            #expect(emulator.document.configs.first { $0.key == "welcome" }?.value == "hello")
            let allowed = try await exchange(
                emulator, "PUT /admin/configs/welcome/value HTTP/1.1\r\n\(host)X-Emulator-Admin: 1\r\n",
                body: #""changed""#)
            #expect(allowed.status == 200)
            #expect(emulator.document.configs.first { $0.key == "welcome" }?.value == "changed")
        }
    }

    @Test("refuses every preflight on the page and the admin API, with no Access-Control-Allow-Origin")
    func preflightRefused() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            for path in ["/", "/admin/configs", "/admin/configs/welcome/value"] {
                let response = try await exchange(
                    emulator,
                    "OPTIONS \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(emulator.port)\r\nOrigin: http://127.0.0.1:1\r\n"
                        + "Access-Control-Request-Method: PUT\r\nAccess-Control-Request-Headers: x-emulator-admin\r\n")
                #expect(response.status == 403, "\(path)")
                #expect(!response.text.lowercased().contains("access-control-allow"), "\(path)")
            }
        }
    }

    @Test("answers 403 to a Host that is not the emulator's address and port; client endpoints ignore it")
    func foreignHost() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let port = emulator.port
            for host in ["rebound.example:\(port)", "127.0.0.1:\(port + 1)", "127.0.0.1", "10.0.0.8:\(port)"] {
                for path in ["/", "/admin/health"] {
                    let response = try await exchange(
                        emulator, "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nX-Emulator-Admin: 1\r\n")
                    #expect(response.status == 403, "\(host) \(path)")
                }
            }
            let missing = try await exchange(emulator, "GET /admin/health HTTP/1.1\r\nX-Emulator-Admin: 1\r\n")
            #expect(missing.status == 403)
            for host in ["localhost:\(port)", "127.0.0.1:\(port)"] {
                let response = try await exchange(
                    emulator, "GET /admin/health HTTP/1.1\r\nHost: \(host)\r\nX-Emulator-Admin: 1\r\n")
                #expect(response.status == 200, "\(host)")
            }
            let polling = try await exchange(
                emulator, "POST /client/polling/v1 HTTP/1.1\r\nHost: rebound.example\r\n", body: Fixtures.body())
            #expect(polling.status == 200)
        }
    }

    @Test("with an admin token, answers 401 to a request without it and lets the token in")
    func token() async throws {
        var configuration = Fixtures.configuration()
        configuration.adminToken = "s3cret-token"
        try await withEmulator(configuration: configuration) { emulator in
            #expect(emulator.adminToken == "s3cret-token")
            let host = "Host: 127.0.0.1:\(emulator.port)\r\n"
            for header in ["", "X-Emulator-Admin: 1\r\n", "X-Emulator-Admin: s3cret-tokeN\r\n"] {
                let response = try await exchange(emulator, "GET /admin/health HTTP/1.1\r\n\(host)\(header)")
                #expect(response.status == 401, "\(header)")
            }
            let allowed = try await exchange(
                emulator, "GET /admin/health HTTP/1.1\r\n\(host)X-Emulator-Admin: s3cret-token\r\n")
            #expect(allowed.status == 200)
        }
    }

    @Test("generates an admin token when it listens beyond loopback, and none on loopback")
    func generatedToken() {
        let exposed = ConfigEmulator(configuration: EmulatorConfiguration(host: "0.0.0.0"))
        let token = exposed.adminToken ?? ""
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit))
        #expect(ConfigEmulator(configuration: EmulatorConfiguration(host: "0.0.0.0")).adminToken != token)
        #expect(ConfigEmulator(configuration: EmulatorConfiguration(host: "127.0.0.1")).adminToken == nil)
        #expect(ConfigEmulator(configuration: EmulatorConfiguration(host: "localhost")).adminToken == nil)
    }

    @Test("serves the dashboard at / with a policy that lets it reach nothing but its own emulator")
    func dashboard() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let page = try await HTTPClient.send("GET", emulator.baseURL.appendingPathComponent("/"))
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.headers["content-security-policy"]?.contains("connect-src 'self'") == true)
            #expect(page.headers["access-control-allow-origin"] == nil)
            #expect(page.text.contains("'X-Emulator-Admin'"))
            #expect(page.text.contains("/admin/events"))
            let post = try await HTTPClient.send("POST", emulator.baseURL.appendingPathComponent("/"), body: "{}")
            #expect(post.status == 405)
        }
    }

    @Test("streams the dashboard's state on /admin/events at once and again after a change")
    func adminEvents() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let connection = try RawConnection(port: emulator.port)
            defer { connection.close() }
            connection.send(
                "GET /admin/events HTTP/1.1\r\nHost: 127.0.0.1:\(emulator.port)\r\nX-Emulator-Admin: 1\r\n\r\n")
            #expect(await connection.read(timeout: 10) { String(decoding: $0, as: UTF8.self).contains("\"welcome\"") })
            #expect(connection.status == 200)
            #expect(connection.hasReceived("event: state"))
            #expect(!connection.hasReceived("from-the-admin-api"))
            emulator.setValue("from-the-admin-api", forKey: "welcome")
            #expect(
                await connection.read(timeout: 10) {
                    String(decoding: $0, as: UTF8.self).contains(#""value":"from-the-admin-api""#)
                })
        }
    }

    @Test("sums telemetry per key and reason, and names the SDKs that sent it")
    func telemetrySummary() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let batch = #"""
                {"clientSdkKey": "\#(Fixtures.sdkKey)", "metaContext": {"sdkName": "swift-client-sdk", "sdkVersion": "9.8.7"},
                 "aggregatedEvents": {"evaluatedConfig": [
                   {"count": 3, "event": {"key": "dark-mode", "evaluationReason": "found-match"}},
                   {"count": 2, "event": {"key": "dark-mode", "evaluationReason": "found-match"}},
                   {"count": 1, "event": {"key": "welcome", "evaluationReason": "config-not-found"}}]}}
                """#
            let telemetry = emulator.baseURL.appendingPathComponent("client/telemetry/v1")
            #expect(try await HTTPClient.send("POST", telemetry, body: batch).status == 202)
            let summary = try await HTTPClient.send("GET", Fixtures.admin(emulator, "telemetry/summary"))
            #expect(summary.status == 200)
            #expect(summary.text.contains(#"{"count":5,"key":"dark-mode","reason":"found-match"}"#))
            #expect(summary.text.contains(#"{"count":1,"key":"welcome","reason":"config-not-found"}"#))
            #expect(
                summary.text.contains(#""name":"swift-client-sdk""#) && summary.text.contains(#""version":"9.8.7""#))
        }
    }
}
