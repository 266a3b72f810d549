import ConfigEmulator
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads what only the emulator's admin API tells, over loopback.
enum EmulatorAdmin {
    private struct Health: Decodable {
        var lastEventId: String
    }

    enum AdminError: Error {
        case status(Int)
    }

    /// The id of the last event the emulator wrote, from `GET /admin/health` (with the admin header).
    static func lastEventID(of emulator: ConfigEmulator) async throws -> String {
        var request = URLRequest(url: emulator.baseURL.appendingPathComponent("admin").appendingPathComponent("health"))
        request.setValue(emulator.adminToken ?? "1", forHTTPHeaderField: "X-Emulator-Admin")
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw AdminError.status(status) }
        return try JSONDecoder().decode(Health.self, from: data).lastEventId
    }
}

/// Starts a new emulator on `port`, the port of one that was stopped, retrying for about a second in
/// case the port is still held; the caller stops it.
/// - Throws: What the last start threw.
func restartEmulator(onPort port: Int, configs: [EmulatedConfig]) async throws -> ConfigEmulator {
    let configuration = EmulatorConfiguration(
        port: port,
        sdkKey: emulatorSDKKey,
        document: ConfigsDocument(configs: configs)
    )
    var attempts = 0
    while true {
        let emulator = ConfigEmulator(configuration: configuration)
        do {
            try emulator.start()
            return emulator
        } catch {
            attempts += 1
            guard attempts < 20 else { throw error }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }
}
