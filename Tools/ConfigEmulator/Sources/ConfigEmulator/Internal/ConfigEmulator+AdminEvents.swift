@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

extension ConfigEmulator {
    /// What the dashboard shows, sent whole on `/admin/events` each time it changes.
    struct DashboardState: Encodable, Equatable {
        var health: Health
        var configs: ConfigsDocument
        var streams: [EmulatorStream]
        var telemetry: TelemetrySummary
    }

    /// The state the dashboard shows now.
    var dashboardState: DashboardState {
        let (health, telemetry) = state.withLock { state in
            (
                Health(
                    port: state.port, lastEventId: state.eventID, streams: state.streams.count,
                    configs: state.configs.count, sdkKey: configuration.sdkKey),
                state.telemetry
            )
        }
        return DashboardState(
            health: health, configs: document, streams: openStreams(), telemetry: TelemetrySummary(telemetry))
    }

    /// `GET /admin/events`: an SSE stream of `state` events, one at once and one after each change (changes
    /// that come together make one event), with a heartbeat comment after `heartbeatInterval` of silence.
    /// It ends when the client goes away or the emulator stops.
    func streamAdminEvents(to client: Socket) {
        do {
            try client.send(HTTPResponse.streamHead())
            client.setNoDelay()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            var sent: DashboardState?
            var seen = -1
            var lastWrite = Date()
            while !stopSignal.isStopped {
                let now = dashboardState
                if now != sent {
                    let data = try encoder.encode(now)
                    try client.send(HTTPResponse.chunk(Array("event: state\ndata: ".utf8) + data + Array("\n\n".utf8)))
                    sent = now
                    lastWrite = Date()
                } else if Date().timeIntervalSince(lastWrite) >= configuration.heartbeatInterval {
                    try client.send(HTTPResponse.chunk(SSE.heartbeat))
                    lastWrite = Date()
                }
                if Socket.pollReadable([client], timeout: 0)[0] && client.peerHasClosed() { return }
                seen = changes.wait(after: seen, until: Date(timeIntervalSinceNow: 0.5))
            }
        } catch {
            log(.debug, "An admin event stream ended: \(error)")
        }
    }
}
