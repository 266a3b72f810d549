@_spi(Internal) @_spi(Locking) internal import ConfigModel
public import Foundation

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// A ``CachingProvider`` that keeps the entry in a file of its own.
///
/// The file is in a `com.configdirector.sdk` folder of Application Support (of Caches on tvOS, where
/// Application Support is not writable), or in the folder you give. Its name is derived from the SHA-256
/// of the client SDK key, so the raw key is never stored. A write goes to a temporary file that then
/// replaces the entry in one rename, so a crash leaves either the old entry or the new one (and at most the
/// temporary file of the write it interrupted, which the provider's first write removes). The file is
/// readable by the app's user only and, on Apple platforms, excluded from backups. The instance id is
/// kept in a file named `instance-id` in the same folder. A read opens the file without blocking and
/// throws when it is not a regular file (a FIFO, a device, a folder), rather than wait on it.
public final class FileCachingProvider: CachingProvider, SizeBoundedReading {
    /// The name of the folder created for the SDK in Application Support.
    public static let folderName = "com.configdirector.sdk"

    /// The name of the instance id's file.
    public static let instanceIDFileName = "instance-id"

    /// The size limit of a file provider unless another is given, in bytes: 1 MB.
    public static let defaultSizeLimit = 1024 * 1024

    /// The file that holds the entry.
    public let fileURL: URL

    private let limit: Int
    private let beforeReplacing: @Sendable (_ temporaryFile: URL) throws -> Void
    /// Whether a write removed the temporary files that earlier writes left when the process ended (a crash, a
    /// `SIGKILL`) between writing and renaming them.
    private let removedLeftovers = Locked(false)

    /// Creates the provider of a client's entry.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key; only its SHA-256 is used.
    ///   - directory: The folder of the file; a `com.configdirector.sdk` folder of Application Support
    ///     (of Caches on tvOS) by default. It is created when it is first written to.
    ///   - sizeLimit: The largest entry kept, in bytes; 1 MB by default.
    public convenience init(clientSDKKey: String, directory: URL? = nil, sizeLimit: Int = defaultSizeLimit) {
        self.init(clientSDKKey: clientSDKKey, directory: directory, sizeLimit: sizeLimit, beforeReplacing: { _ in })
    }

    /// Creates the provider of a client's entry with a hook run between writing the temporary file and
    /// renaming it over the entry; a hook that throws stands for a crash at that moment.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key; only its SHA-256 is used.
    ///   - directory: The folder of the file, or `nil` for the default one.
    ///   - sizeLimit: The largest entry kept, in bytes.
    ///   - beforeReplacing: Called with the temporary file once it is written and before the rename.
    convenience init(
        clientSDKKey: String,
        directory: URL?,
        sizeLimit: Int = defaultSizeLimit,
        beforeReplacing: @escaping @Sendable (_ temporaryFile: URL) throws -> Void
    ) {
        let folder = directory ?? Self.defaultDirectory()
        let name = "values-" + SHA256Digest.hexHash(of: clientSDKKey) + ".json"
        self.init(fileURL: folder.appendingPathComponent(name), sizeLimit: sizeLimit, beforeReplacing: beforeReplacing)
    }

    /// Creates the provider of another file of the SDK's.
    /// - Parameters:
    ///   - name: The file's name.
    ///   - directory: Its folder, or `nil` for the default one.
    ///   - sizeLimit: The largest entry kept, in bytes.
    convenience init(file name: String, in directory: URL?, sizeLimit: Int) {
        let folder = directory ?? Self.defaultDirectory()
        self.init(fileURL: folder.appendingPathComponent(name), sizeLimit: sizeLimit, beforeReplacing: { _ in })
    }

    private init(fileURL: URL, sizeLimit: Int, beforeReplacing: @escaping @Sendable (URL) throws -> Void) {
        self.fileURL = fileURL
        limit = sizeLimit
        self.beforeReplacing = beforeReplacing
    }

    /// The folder used when none is given: `com.configdirector.sdk` in Application Support, or in
    /// Caches on tvOS.
    public static func defaultDirectory() -> URL {
        #if os(tvOS)
        let base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
        #else
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
        #endif
        let root = base ?? FileManager.default.temporaryDirectory
        return root.appendingPathComponent(folderName, isDirectory: true)
    }

    /// The file's content, or `nil` when there is no file. Bytes that are not UTF-8 are replaced, so
    /// that a damaged file reads as an entry that does not decode.
    /// - Throws: When the file exists but cannot be read, or is not a regular file (a FIFO, a device,
    ///   a folder), which is refused without waiting for it.
    public func read() throws -> String? {
        guard let handle = try openRegularFile() else { return nil }
        defer { try? handle.close() }
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// The file's content, or its size when above `limit` bytes: the size is the file's, known before
    /// any byte is read, and no more than `limit + 1` bytes are read of a file that grows meanwhile.
    func read(upTo limit: Int) throws -> BoundedEntry {
        guard let handle = try openRegularFile() else { return .absent }
        defer { try? handle.close() }
        var status = stat()
        guard fstat(handle.fileDescriptor, &status) == 0 else { throw Self.posixError("fstat") }
        let size = Int(status.st_size)
        guard size <= limit else { return .tooLarge(size) }
        let data = try handle.read(upToCount: limit + 1) ?? Data()
        guard data.count <= limit else { return .tooLarge(data.count) }
        return .entry(String(decoding: data, as: UTF8.self))
    }

    /// The file opened for reading, or `nil` when there is none. It is opened without blocking
    /// (`O_NONBLOCK`: the `open` of a FIFO would wait for a writer for ever) and refused unless it is a
    /// regular file.
    private func openRegularFile() throws -> FileHandle? {
        let descriptor = open(fileURL.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Self.posixError("open")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            try? handle.close()
            throw Self.posixError("fstat")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            try? handle.close()
            throw NotARegularFile()
        }
        return handle
    }

    /// Writes `entry` to a temporary file readable by the user only, then renames it over the file.
    /// - Throws: When the folder or the file cannot be written.
    public func write(_ entry: String) throws {
        let folder = fileURL.deletingLastPathComponent()
        try createFolderIfNeeded(folder)
        if removedLeftovers.withLock({ removed in
            defer { removed = true }
            return !removed
        }) {
            removeLeftovers(in: folder)
        }
        let temporaryFile = folder.appendingPathComponent(temporaryPrefix + "\(UUID().uuidString).tmp")
        do {
            try writeNewFile(entry, at: temporaryFile)
            try beforeReplacing(temporaryFile)
            guard rename(temporaryFile.path, fileURL.path) == 0 else { throw Self.posixError("rename") }
        } catch {
            try? FileManager.default.removeItem(at: temporaryFile)
            throw error
        }
        Self.excludeFromBackup(fileURL)
    }

    /// The start of the names of this file's temporary files: `.values-<sha256>.json.`.
    private var temporaryPrefix: String { "." + fileURL.lastPathComponent + "." }

    /// Removes this file's temporary files left in `folder` by writes that never reached their rename. A write of
    /// another provider of the same file under way at that moment (another client of the same key, in this
    /// process or another sharing the folder) then fails, is logged, and is made again at its next change.
    private func removeLeftovers(in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(temporaryPrefix) && name.hasSuffix(".tmp") {
            _ = unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// Deletes the file; a missing file is not an error.
    /// - Throws: When the file exists and cannot be deleted.
    public func remove() throws {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else { throw Self.posixError("unlink") }
    }

    /// The size limit given at creation.
    public func sizeLimit() -> Int { limit }

    /// The provider of the `instance-id` file in the same folder.
    public func instanceIDProvider() -> any CachingProvider {
        Self.instanceIDProvider(in: fileURL.deletingLastPathComponent())
    }

    /// The provider of the `instance-id` file of ``defaultDirectory()``.
    static func defaultInstanceIDProvider() -> FileCachingProvider {
        instanceIDProvider(in: defaultDirectory())
    }

    private static func instanceIDProvider(in folder: URL) -> FileCachingProvider {
        FileCachingProvider(
            fileURL: folder.appendingPathComponent(instanceIDFileName),
            sizeLimit: 1024,
            beforeReplacing: { _ in }
        )
    }

    private func createFolderIfNeeded(_ folder: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return
        }
        try FileManager.default.createDirectory(
            at: folder,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        Self.excludeFromBackup(folder)
    }

    /// Writes the entry's UTF-8 bytes in place, without a copy of them: a write costs the entry once.
    private func writeNewFile(_ entry: String, at url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.posixError("open") }
        defer { close(descriptor) }
        var entry = entry
        try entry.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let count = writeToDescriptor(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Self.posixError("write")
                }
                written += count
            }
        }
        guard fsync(descriptor) == 0 else { throw Self.posixError("fsync") }
    }

    private static func posixError(_ operation: String) -> any Error {
        let code = POSIXErrorCode(rawValue: errno) ?? .EIO
        return POSIXError(code, userInfo: [NSLocalizedDescriptionKey: "\(operation) failed"])
    }

    private static func excludeFromBackup(_ url: URL) {
        #if canImport(Darwin)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        var target = url
        try? target.setResourceValues(values)
        #endif
    }
}

/// The error of a read where the file is not a regular one.
private struct NotARegularFile: LocalizedError {
    var errorDescription: String? { "the file is not a regular file (a FIFO, a device or a folder), so it is not read" }
}

/// POSIX `write(2)`, named so that the provider's own `write(_:)` does not hide it.
private func writeToDescriptor(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
