import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One-shot JSON requests with URLSession.
enum HTTPClient {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }

        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(type, from: body)
        }
    }

    /// Sends a request and reads the whole response. A request to `/admin/…` carries `X-Emulator-Admin: 1`,
    /// as every admin client must, unless `headers` gives that header another value.
    static func send(
        _ method: String,
        _ url: URL,
        body: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Response {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if url.path.hasPrefix("/admin/") { request.setValue("1", forHTTPHeaderField: "X-Emulator-Admin") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Response(status: http.statusCode, headers: fields, body: data)
    }
}
