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

    /// The id of the last event the emulator wrote, from `GET /admin/health`.
    static func lastEventID(of emulator: ConfigEmulator) async throws -> String {
        let url = emulator.baseURL.appendingPathComponent("admin").appendingPathComponent("health")
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw AdminError.status(status) }
        return try JSONDecoder().decode(Health.self, from: data).lastEventId
    }
}
