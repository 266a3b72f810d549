@_spi(Internal) public import ConfigModel
public import Foundation

/// Where a client keeps its local overrides across launches (when its options ask for it): a file of its own in
/// the SDK's folder (``FileCachingProvider/defaultDirectory()`` unless another is given), named from the SHA-256
/// of the client SDK key, written as the kept values are (a temporary file renamed over the old one).
///
/// The file is `{"overrides": [{"key": …, "type": …, "value": …}, …]}`: a list rather than an object keyed by
/// config key, so that keys Swift holds equal (precomposed and decomposed spellings) stay apart.
@_spi(Internal) public final class OverrideStore: Sendable {
    private let file: FileCachingProvider

    private struct Contents: Codable {
        var overrides: [ConfigState]
    }

    /// Creates the store of a client.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key; only its SHA-256 is used.
    ///   - directory: The folder of the file; ``FileCachingProvider/defaultDirectory()`` when `nil`.
    public init(clientSDKKey: String, directory: URL?) {
        let digest = SHA256Digest.hexHash(of: clientSDKKey)
        file = FileCachingProvider(file: "overrides-\(digest).json", in: directory, sizeLimit: 1024 * 1024)
    }

    /// The overrides kept, each with its key, type and value, or none and why when the file could not be read
    /// or decoded (then it is replaced at the next write).
    public func read() -> (overrides: [ConfigState], problem: String?) {
        let text: String?
        do {
            text = try file.read()
        } catch {
            return ([], "the overrides kept could not be read (\(error.localizedDescription))")
        }
        guard let text else { return ([], nil) }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: Data(text.utf8)) else {
            return ([], "the overrides kept do not decode")
        }
        return (contents.overrides.filter { $0.key != nil && $0.value != nil }, nil)
    }

    /// Writes `overrides` over the ones kept (removes the file when there are none); blocks for the write.
    /// - Parameter overrides: The overrides, each with its key.
    /// - Throws: When the file cannot be written.
    public func write(_ overrides: [ConfigState]) throws {
        guard !overrides.isEmpty else { return try file.remove() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try file.write(String(decoding: try encoder.encode(Contents(overrides: overrides)), as: UTF8.self))
    }
}
