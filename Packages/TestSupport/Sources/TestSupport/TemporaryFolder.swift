public import Foundation

/// A folder of its own under the system's temporary directory, removed by ``remove()``.
public struct TemporaryFolder: Sendable {
    /// The folder's URL.
    public let url: URL

    /// Creates a new, empty folder.
    /// - Throws: What `FileManager` throws when the folder cannot be made.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("configdirector-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
