public import Foundation

/// The contents of a configs file: the environment and project ids served and the configs.
public struct ConfigsDocument: Sendable, Hashable, Codable {
    /// The `environmentId` of every config set served.
    public var environmentID: String?
    /// The `projectId` of every config set served.
    public var projectID: String?
    /// The configs, in file order; a repeated key keeps its last entry.
    public var configs: [EmulatedConfig]

    /// Creates a document.
    /// - Parameters:
    ///   - environmentID: The environment id served.
    ///   - projectID: The project id served.
    ///   - configs: The configs.
    public init(environmentID: String? = nil, projectID: String? = nil, configs: [EmulatedConfig]) {
        self.environmentID = environmentID
        self.projectID = projectID
        self.configs = configs
    }

    private enum CodingKeys: String, CodingKey {
        case environmentID = "environmentId"
        case projectID = "projectId"
        case configs
    }

    /// Reads and decodes a configs file.
    /// - Parameter url: The file's URL.
    /// - Returns: The document.
    /// - Throws: ``EmulatorError/invalidConfigs(_:)`` when the file cannot be read or decoded.
    public static func load(from url: URL) throws -> ConfigsDocument {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw EmulatorError.invalidConfigs("cannot read \(url.path): \(error.localizedDescription)")
        }
        return try decode(data)
    }

    /// Decodes a configs document from JSON.
    /// - Parameter data: The JSON text.
    /// - Returns: The document.
    /// - Throws: ``EmulatorError/invalidConfigs(_:)`` with the decoder's explanation.
    public static func decode(_ data: Data) throws -> ConfigsDocument {
        do {
            return try JSONDecoder().decode(ConfigsDocument.self, from: data)
        } catch let error as DecodingError {
            throw EmulatorError.invalidConfigs(Self.explain(error))
        } catch {
            throw EmulatorError.invalidConfigs("\(error)")
        }
    }

    private static func explain(_ error: DecodingError) -> String {
        let (context, what): (DecodingError.Context?, String) =
            switch error {
            case .dataCorrupted(let context): (context, "invalid data")
            case .keyNotFound(let key, let context): (context, "missing \"\(key.stringValue)\"")
            case .typeMismatch(_, let context): (context, "wrong type")
            case .valueNotFound(_, let context): (context, "missing value")
            @unknown default: (nil, "\(error)")
            }
        guard let context else { return what }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return "\(what) at \(path.isEmpty ? "top level" : path): \(context.debugDescription)"
    }
}
