import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import TestSupport
import Testing

@Suite("Robustness", .timeLimit(.minutes(3)))
struct RobustnessTests {
    @Test(
        "answers 400 to malformed requests",
        arguments: [
            "GARBAGE\r\n\r\n",
            "GET /admin/health HTTP/2.0\r\n\r\n",
            "GET admin/health HTTP/1.1\r\n\r\n",
            "GET /admin/health HTTP/1.1\nHost: x\n\n",
            "POST /client/polling/v1 HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
            "POST /client/polling/v1 HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
            "POST /client/polling/v1 HTTP/1.1\r\nBad Header: 1\r\n\r\n",
            "POST /client/polling/v1 HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
            "POST /client/polling/v1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "POST /client/polling/v1 HTTP/1.1\r\nContent-Length: 10\r\n\r\nshort",
        ])
    func malformed(request: String) async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let connection = try RawConnection(port: emulator.port)
            connection.send(request)
            connection.finishSending()
            #expect(await connection.readToEnd(timeout: 5))
            #expect(connection.status == 400)
        }
    }

    @Test("answers 413 to an oversized head, Content-Length or chunked body")
    func oversized() async throws {
        var configuration = Fixtures.configuration()
        configuration.maxRequestBodyBytes = 1000
        try await withEmulator(configuration: configuration) { emulator in
            let longHead = "GET /admin/health HTTP/1.1\r\nX-Filler: \(String(repeating: "a", count: 20_000))\r\n\r\n"
            let declared = "POST /client/polling/v1 HTTP/1.1\r\nContent-Length: 5000\r\n\r\n"
            let chunked =
                "POST /client/polling/v1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3e8\r\n\(String(repeating: "b", count: 1000))\r\n1\r\nc\r\n0\r\n\r\n"
            for request in [longHead, declared, chunked] {
                let connection = try RawConnection(port: emulator.port)
                connection.send(request)
                #expect(await connection.readToEnd(timeout: 5))
                #expect(connection.status == 413)
            }
        }
    }

    @Test("reads a chunked request body")
    func chunkedBody() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let body = Array(Fixtures.body().utf8)
            let split = body.count / 2
            var request = "POST /client/polling/v1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
            request +=
                String(split, radix: 16) + ";ext=1\r\n" + String(decoding: body[..<split], as: UTF8.self) + "\r\n"
            request += String(body.count - split, radix: 16) + "\r\n" + String(decoding: body[split...], as: UTF8.self)
            request += "\r\n0\r\nTrailer: x\r\n\r\n"
            let connection = try RawConnection(port: emulator.port)
            connection.send(request)
            #expect(await connection.readToEnd(timeout: 5))
            #expect(connection.status == 200)
            #expect(emulator.recordedRequests().first?.bodyText == Fixtures.body())
        }
    }

    @Test("answers 400 to deeply nested JSON on every endpoint that decodes a body")
    func deepNesting() async throws {
        try await withEmulator(configs: Fixtures.configs, sdkKey: Fixtures.sdkKey) { emulator in
            let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let bodies = [
                ("client/polling/v1", #"{"clientSdkKey": "\#(Fixtures.sdkKey)", "givenContext": \#(nested)}"#),
                ("client/telemetry/v1", #"{"clientSdkKey": "\#(Fixtures.sdkKey)", "context": \#(nested)}"#),
                ("admin/configs", #"{"key": "k", "type": "json", "value": \#(nested)}"#),
            ]
            for (path, body) in bodies {
                let response = try await HTTPClient.send(
                    "POST", emulator.baseURL.appendingPathComponent(path), body: body)
                #expect(response.status == 400, "\(path)")
            }
            let polling = emulator.baseURL.appendingPathComponent("client/polling/v1")
            let response = try await HTTPClient.send("POST", polling, body: Fixtures.body())
            #expect(response.status == 200)
        }
    }

    @Test("answers 408 to a request that does not arrive in time")
    func slowRequest() async throws {
        var configuration = Fixtures.configuration()
        configuration.requestTimeout = 0.3
        try await withEmulator(configuration: configuration) { emulator in
            let connection = try RawConnection(port: emulator.port)
            connection.send("POST /client/polling/v1 HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
            #expect(await connection.readToEnd(timeout: 5))
            #expect(connection.status == 408)
        }
    }

    @Test("survives a seeded loop of random and mutated bytes at the request parser")
    func fuzz() async throws {
        var configuration = Fixtures.configuration()
        configuration.requestTimeout = 0.5
        configuration.maxRequestBodyBytes = 4096
        try await withEmulator(configuration: configuration) { emulator in
            var random = SplitMix64(seed: 0xC0FF_EE15_600D)
            let valid = Array(
                ("POST /client/polling/v1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n0\r\n\r\n").utf8
            )
            let allowed: Set<Int?> = [nil, 200, 400, 401, 404, 405, 408, 413]
            for iteration in 0..<250 {
                var bytes: [UInt8]
                if iteration % 2 == 0 {
                    bytes = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                } else {
                    bytes = valid
                    for _ in 0..<(1 + Int(random.next() % 4)) {
                        let index = Int(random.next() % UInt64(bytes.count))
                        bytes[index] = UInt8(truncatingIfNeeded: random.next())
                    }
                }
                let connection = try RawConnection(port: emulator.port)
                connection.send(bytes)
                connection.finishSending()
                #expect(await connection.readToEnd(timeout: 5), "iteration \(iteration) did not close")
                #expect(allowed.contains(connection.status), "iteration \(iteration) got \(connection.text.prefix(40))")
            }
            let polling = emulator.baseURL.appendingPathComponent("client/polling/v1")
            #expect(try await HTTPClient.send("POST", polling, body: Fixtures.body()).status == 200)
        }
    }

    @Test("drops a streaming client that stops reading instead of buffering without bound")
    func slowClientDropped() async throws {
        var configuration = Fixtures.configuration()
        configuration.maxQueuedBytesPerStream = 256 * 1024
        configuration.writeTimeout = 0.5
        try await withEmulator(configuration: configuration) { emulator in
            let connection = try RawConnection(port: emulator.port)
            connection.shrinkReceiveBuffer()
            connection.post("/client/sse/v1", json: Fixtures.body())
            try await emulator.waitForStream()
            // More than the socket buffers on both sides hold, so the writer blocks and the queue fills.
            for _ in 0..<80 { emulator.inject(.oversizedEvent(bytes: 100_000)) }
            let deadline = Date(timeIntervalSinceNow: 10)
            while !emulator.openStreams().isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(emulator.openStreams().isEmpty)
        }
    }
}
