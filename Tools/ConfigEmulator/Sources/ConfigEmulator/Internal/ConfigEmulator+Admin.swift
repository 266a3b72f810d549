@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

extension ConfigEmulator {
    /// The admin API's health answer.
    struct Health: Encodable, Equatable {
        var status = "ok"
        var port: Int
        var lastEventId: String
        var streams: Int
        var configs: Int
        /// The client SDK key accepted, for the dashboard's connection instructions.
        var sdkKey: String
    }

    /// Answers a request under `/admin/`.
    func handleAdmin(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map {
            String($0).removingPercentEncoding ?? String($0)
        }
        switch (request.method, parts.dropFirst().first ?? "", Array(parts.dropFirst(2))) {
        case ("GET", "health", []):
            let health = state.withLock { state in
                Health(
                    port: state.port, lastEventId: state.eventID, streams: state.streams.count,
                    configs: state.configs.count, sdkKey: configuration.sdkKey)
            }
            return .json(200, health)
        case ("GET", "configs", []):
            return .json(200, document)
        case ("PUT", "configs", []):
            return decode(ConfigsDocument.self, from: request) { document in
                replaceConfigs(document)
                return .json(200, self.document)
            }
        case ("POST", "configs", []):
            return decode(EmulatedConfig.self, from: request) { config in
                setConfig(config)
                return .json(200, config)
            }
        case ("GET", "configs", let rest) where rest.count == 1:
            guard let config = document.configs.first(where: { $0.key == rest[0] }) else {
                return .error(404, "no config \(rest[0])")
            }
            return .json(200, config)
        case ("PUT", "configs", let rest) where rest.count == 2 && rest[1] == "value":
            return decode(ConfigDirectorContext.TraitValue.self, from: request) { value in
                guard setValue(value, forKey: rest[0]) else { return .error(404, "no config \(rest[0])") }
                return .json(200, document.configs.first { $0.key == rest[0] })
            }
        case ("DELETE", "configs", let rest) where rest.count == 1:
            guard removeConfig(forKey: rest[0]) else { return .error(404, "no config \(rest[0])") }
            return HTTPResponse(status: 204)
        case ("GET", "requests", []):
            return .json(200, recordedRequests(path: request.query["path"]))
        case ("GET", "telemetry", []):
            return .json(200, telemetryBatches())
        case ("GET", "telemetry", ["summary"]):
            return .json(200, TelemetrySummary(telemetryBatches()))
        case ("DELETE", "requests", []), ("DELETE", "telemetry", []):
            clearRecords()
            return HTTPResponse(status: 204)
        case ("GET", "streams", []):
            return .json(200, openStreams())
        case ("GET", "streams", ["wait"]):
            return waitForStreams(query: request.query)
        case ("POST", "faults", []):
            return decode(EmulatorFault.self, from: request) { fault in
                inject(fault)
                return .json(202, fault)
            }
        case ("DELETE", "faults", []):
            clearFaults()
            return HTTPResponse(status: 204)
        case (_, "health", _), (_, "configs", _), (_, "requests", _), (_, "telemetry", _), (_, "streams", _),
            (_, "faults", _):
            return .error(parts.count > 3 ? 404 : 405, "\(request.method) \(request.path) is not an admin operation")
        default:
            return .error(404, "no admin endpoint \(request.path)")
        }
    }

    private func decode<Value: Decodable>(
        _ type: Value.Type,
        from request: HTTPRequest,
        then body: (Value) -> HTTPResponse
    ) -> HTTPResponse {
        do {
            return body(try JSONDecoder().decode(Value.self, from: request.body))
        } catch {
            return .error(400, "cannot decode \(Value.self): \(String(describing: error).prefix(500))")
        }
    }

    /// `GET /admin/streams/wait?count=N&timeout=S`: waits up to S seconds (at most 60) for N streams.
    private func waitForStreams(query: [String: String]) -> HTTPResponse {
        let count = query["count"].flatMap(Int.init) ?? 1
        let timeout = min(query["timeout"].flatMap(Double.init) ?? 5, 60)
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let streams = openStreams()
            if streams.count >= count { return .json(200, streams) }
            if Date() >= deadline { return .error(408, "\(streams.count) of \(count) streams open") }
            if stopSignal.wait(seconds: 0.01) { return .error(503, "stopping") }
        }
    }
}
