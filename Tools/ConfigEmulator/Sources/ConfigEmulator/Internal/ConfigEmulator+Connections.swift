@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

extension ConfigEmulator {
    /// What reading a request gave.
    enum ReadOutcome {
        case request(HTTPRequest)
        case failure(status: Int, reason: String)
        case closed
    }

    /// The body of a connection request (PROTOCOL §2), as far as the emulator reads it.
    struct ConnectionBody: Decodable {
        var clientSdkKey: String?
        var givenContext: ConfigDirectorContext?
    }

    /// Accepts connections, each on a thread of its own, and notices streaming clients that went away.
    func acceptLoop(listener: Socket) {
        while !stopSignal.isStopped {
            let streams = state.withLock { Array($0.streams.values) }
            let ready = Socket.pollReadable([listener] + streams.map(\.socket), timeout: 0.05)
            for (index, stream) in streams.enumerated() where ready[index + 1] && stream.socket.peerHasClosed() {
                stream.end(cleanly: false)
            }
            guard ready[0] else { continue }
            do {
                while let client = try listener.acceptNow() { admit(client) }
            } catch {
                log(.warn, "Accepting a connection failed: \(error)")
                stopSignal.wait(seconds: 0.05)
            }
        }
    }

    private func admit(_ client: Socket) {
        let accepted = state.withLock { state in
            guard state.phase == .running, state.connections.count < configuration.maxConnections else { return false }
            state.connections[ObjectIdentifier(client)] = client
            return true
        }
        guard accepted else {
            client.setTimeouts(read: 1, write: 1)
            try? client.send(HTTPResponse.error(503, "too many connections").serialized)
            client.close()
            return
        }
        threads.spawn(name: "config-emulator-connection") { [self] in
            serve(client)
            client.close()
            state.withLock { _ = $0.connections.removeValue(forKey: ObjectIdentifier(client)) }
        }
    }

    private func serve(_ client: Socket) {
        client.setTimeouts(read: min(configuration.requestTimeout, 1), write: configuration.writeTimeout)
        switch readRequest(from: client) {
        case .closed: return
        case .failure(let status, let reason):
            log(.debug, "Rejected a request with \(status): \(reason)")
            try? client.send(HTTPResponse.error(status, reason).serialized)
        case .request(let request):
            let port = state.withLock { $0.port }
            if request.path == "/admin" || request.path.hasPrefix("/admin/") {
                if let refusal = gate.refusal(forAdmin: request, port: port) {
                    try? client.send(refusal.serialized)
                } else if request.method == "GET" && request.path == "/admin/events" {
                    streamAdminEvents(to: client)
                } else {
                    try? client.send(handleAdmin(request).serialized)
                }
            } else if request.path == "/" {
                try? client.send(
                    (gate.refusal(forPage: request, port: port) ?? DashboardPage.response(to: request)).serialized)
            } else {
                handleClient(request, on: client)
            }
        }
    }

    /// Reads one request, bounded in size and in time.
    private func readRequest(from client: Socket) -> ReadOutcome {
        let parser = HTTPRequestParser(
            maxHeadBytes: configuration.maxRequestHeadBytes, maxBodyBytes: configuration.maxRequestBodyBytes
        )
        let deadline = Date(timeIntervalSinceNow: configuration.requestTimeout)
        var bytes: [UInt8] = []
        var head: HTTPRequestHead?
        var framing: HTTPRequestParser.BodyFraming?
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if head == nil {
                switch parser.parseHead(bytes) {
                case .incomplete: break
                case .failure(let status, let reason): return .failure(status: status, reason: reason)
                case .complete(let parsed):
                    head = parsed
                    switch parser.framing(of: parsed) {
                    case .incomplete: break
                    case .failure(let status, let reason): return .failure(status: status, reason: reason)
                    case .complete(let bodyFraming): framing = bodyFraming
                    }
                    let expects = parsed.headers.contains {
                        $0.name.lowercased() == "expect" && $0.value.lowercased() == "100-continue"
                    }
                    if expects && bytes.count == parsed.length && framing != .length(0) {
                        try? client.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    }
                }
            }
            if let head, let framing {
                switch framing {
                case .length(let length) where bytes.count >= head.length + length:
                    return .request(Self.request(head, body: bytes[head.length..<head.length + length]))
                case .length: break
                case .chunked:
                    switch parser.decodeChunked(bytes, from: head.length) {
                    case .incomplete: break
                    case .failure(let status, let reason): return .failure(status: status, reason: reason)
                    case .complete(let decoded): return .request(Self.request(head, body: decoded.body[...]))
                    }
                }
            }
            guard Date() < deadline, !stopSignal.isStopped else {
                return bytes.isEmpty ? .closed : .failure(status: 408, reason: "request not received in time")
            }
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try client.receive(into: $0) }
            } catch let error as SocketError where error.code == EAGAIN || error.code == EWOULDBLOCK {
                continue
            } catch {
                return .closed
            }
            if count == 0 {
                return bytes.isEmpty ? .closed : .failure(status: 400, reason: "connection closed mid-request")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    private static func request(_ head: HTTPRequestHead, body: ArraySlice<UInt8>) -> HTTPRequest {
        let (path, query) = HTTPRequestParser.splitTarget(head.target)
        return HTTPRequest(method: head.method, path: path, query: query, headers: head.headers, body: Data(body))
    }

    // MARK: Client endpoints

    private func handleClient(_ request: HTTPRequest, on client: Socket) {
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            let name = name.lowercased()
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        let recorded = RecordedRequest(
            method: request.method, path: request.path, headers: headers, body: request.body, receivedAt: Date()
        )
        let (fault, stall) = state.withLock { state in
            EmulatorState.append(recorded, to: &state.requests, limit: configuration.recordLimit)
            return (state.takeStatusFault(for: request.path), state.takeStall(for: request.path))
        }
        if let stall {
            log(.info, "Stalling \(request.path) for \(stall) s")
            if stopSignal.wait(seconds: stall) { return }
        }
        if let fault {
            var response = HTTPResponse.error(fault.status, "injected fault")
            if let retryAfter = fault.retryAfter { response.headers.append(("Retry-After", retryAfter)) }
            try? client.send(response.serialized)
            return
        }
        let endpoints = ["/client/sse/v1", "/client/polling/v1", "/client/telemetry/v1"]
        guard endpoints.contains(request.path) else {
            try? client.send(HTTPResponse.error(404, "no such endpoint").serialized)
            return
        }
        guard request.method == "POST" else {
            var response = HTTPResponse.error(405, "use POST")
            response.headers.append(("Allow", "POST"))
            try? client.send(response.serialized)
            return
        }
        if request.path == "/client/telemetry/v1" {
            try? client.send(acceptTelemetry(request).serialized)
            return
        }
        let body: ConnectionBody
        do {
            body = try JSONDecoder().decode(ConnectionBody.self, from: request.body)
        } catch {
            try? client.send(HTTPResponse.error(400, "body is not a connection request").serialized)
            return
        }
        guard body.clientSdkKey == configuration.sdkKey else {
            try? client.send(HTTPResponse.error(401, "invalid client SDK key").serialized)
            return
        }
        let context = body.givenContext ?? ConfigDirectorContext()
        if request.path == "/client/polling/v1" {
            var response = HTTPResponse.json(200, state.withLock { $0.fullSet(for: context) })
            response.headers.append(("Cache-Control", "no-store"))
            try? client.send(response.serialized)
        } else {
            stream(to: client, context: context, lastEventID: request.header("Last-Event-ID"))
        }
    }

    private func acceptTelemetry(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = try? JSONDecoder().decode(ConfigDirectorContext.TraitValue.self, from: request.body),
            case .dictionary(let members) = body
        else { return .error(400, "body is not a telemetry batch") }
        guard members["clientSdkKey"] == .string(configuration.sdkKey) else {
            return .error(401, "invalid client SDK key")
        }
        let batch = TelemetryBatch(body: body, receivedAt: Date())
        state.withLock { EmulatorState.append(batch, to: &$0.telemetry, limit: configuration.recordLimit) }
        changes.bump()
        return HTTPResponse(status: 202)
    }

    // MARK: Streaming

    private func stream(to client: Socket, context: ConfigDirectorContext, lastEventID: String?) {
        do {
            try client.send(HTTPResponse.streamHead())
        } catch {
            return
        }
        client.setNoDelay()
        let channel: StreamChannel? = state.withLock { state in
            guard state.phase == .running else { return nil }
            let description = EmulatorStream(
                id: state.nextStreamID, context: context, lastEventID: lastEventID, openedAt: Date()
            )
            state.nextStreamID += 1
            let closeAfter = state.closeAfterEvents.isEmpty ? nil : state.closeAfterEvents.removeFirst()
            let channel = StreamChannel(
                description: description, socket: client,
                maxQueuedBytes: configuration.maxQueuedBytesPerStream, closeAfterEvents: closeAfter
            )
            if let opening = state.openingEvent(for: context, lastEventID: lastEventID) { channel.send(opening) }
            state.streams[description.id] = channel
            return channel
        }
        guard let channel else { return }
        changes.bump()
        log(.info, "Stream \(channel.description.id) opened for \(Self.describe(context))")
        writeEvents(of: channel, to: client)
        state.withLock { _ = $0.streams.removeValue(forKey: channel.description.id) }
        changes.bump()
        log(.info, "Stream \(channel.description.id) closed")
    }

    private func writeEvents(of channel: StreamChannel, to client: Socket) {
        var nextHeartbeat = Date(timeIntervalSinceNow: configuration.heartbeatInterval)
        do {
            while true {
                switch channel.next(until: nextHeartbeat) {
                case .event(let event):
                    let slowly = state.withLock { state in
                        guard state.byteByByteEvents > 0 else { return false }
                        state.byteByByteEvents -= 1
                        return true
                    }
                    if slowly {
                        for byte in event {
                            guard !channel.isEnding, !stopSignal.isStopped else { return }
                            try client.send(HTTPResponse.chunk([byte]))
                            stopSignal.wait(seconds: 0.001)
                        }
                    } else {
                        try client.send(HTTPResponse.chunk(event))
                    }
                case .idle:
                    try client.send(HTTPResponse.chunk(SSE.heartbeat))
                case .end(let cleanly):
                    if cleanly { try client.send(HTTPResponse.lastChunk) }
                    return
                }
                nextHeartbeat = Date(timeIntervalSinceNow: configuration.heartbeatInterval)
            }
        } catch {
            log(.debug, "Stream \(channel.description.id) write failed: \(error)")
        }
    }

    static func describe(_ context: ConfigDirectorContext) -> String {
        "\(context.effectiveKind) \(context.id.map { "\"\($0)\"" } ?? "without id")"
    }
}
