@_spi(Internal) public import ConfigModel
public import Foundation

/// Where crash-loop safe mode keeps its ``LaunchRecord`` and the last values that ran well, each in a file of its
/// own in the SDK's folder (``FileCachingProvider/defaultDirectory()`` unless another is given), named from the
/// SHA-256 of the client SDK key. Both are written as the kept values are, to a temporary file renamed over the
/// old one, so that a `SIGKILL` at any moment leaves the old file or the new one.
///
/// The record holds fingerprints, never values. The last values that ran well are a kept entry (PROTOCOL §10),
/// served only for the context they were evaluated for, as the kept values are; they are kept only while caching
/// is on (``CachingOptions/enabled``).
@_spi(Internal) public final class LaunchRecordStore: Sendable {
    private let recordFile: FileCachingProvider
    private let lastGood: KeptValuesStore

    /// Creates the store of a client.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key; only its SHA-256 is used.
    ///   - directory: The folder of the files; ``FileCachingProvider/defaultDirectory()`` when `nil`.
    ///   - caching: The client's caching options: the last values that ran well are kept only when they are
    ///     enabled, with the instance id of their provider.
    ///   - logger: Where the last good values' storage failures are logged, once (the record's are its caller's).
    public init(
        clientSDKKey: String, directory: URL?, caching: CachingOptions, logger: any ConfigDirectorLogger
    ) {
        let digest = SHA256Digest.hexHash(of: clientSDKKey)
        recordFile = FileCachingProvider(file: "launches-\(digest).json", in: directory, sizeLimit: 64 * 1024)
        let instanceIDs = caching.resolvedProvider(forClientSDKKey: clientSDKKey).instanceIDProvider()
        let lastGoodFile = FileCachingProvider(
            file: "last-good-\(digest).json", in: directory, sizeLimit: FileCachingProvider.defaultSizeLimit)
        lastGood = KeptValuesStore(
            clientSDKKey: clientSDKKey,
            options: CachingOptions(
                enabled: caching.enabled, provider: LastGoodProvider(file: lastGoodFile, instanceIDs: instanceIDs)),
            logger: logger,
            // Written at once: a set is proven rarely, and a crash soon after must find it kept.
            coalescingWindow: 0
        )
    }

    /// The record kept, or a record of no launch (a healthy past) when there is none, and why when one could not
    /// be read or decoded (then it is replaced at the next write).
    public func read() -> (record: LaunchRecord, problem: String?) {
        let text: String?
        do {
            text = try recordFile.read()
        } catch {
            return (LaunchRecord(), "the launch record could not be read (\(error.localizedDescription))")
        }
        guard let text else { return (LaunchRecord(), nil) }
        guard let record = try? JSONDecoder().decode(LaunchRecord.self, from: Data(text.utf8)) else {
            return (LaunchRecord(), "the launch record does not decode")
        }
        return (record, nil)
    }

    /// Writes `record` over the one kept; blocks for the write.
    /// - Throws: When the file cannot be written.
    public func write(_ record: LaunchRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try recordFile.write(String(decoding: try encoder.encode(record), as: UTF8.self))
    }

    /// Keeps `set` as the last values that ran well for `context`, written at once on a storage thread.
    public func keepLastGood(
        _ set: @autoclosure @escaping @Sendable () -> ConfigSet, for context: ConfigDirectorContext?
    ) {
        lastGood.save(set(), for: context)
    }

    /// The last values that ran well for `context`, if they are kept.
    public func lastGood(for context: ConfigDirectorContext?) async -> ConfigSet? {
        await lastGood.load(for: context)
    }

    /// Writes the last values that ran well if their write is pending, and stops writing.
    public func close() async {
        await lastGood.close()
    }
}

/// The file of the last values that ran well, with the instance id of the client's own caching provider, so that
/// the values of a context without an id are served on the install that wrote them, as the kept values are.
private struct LastGoodProvider: CachingProvider {
    let file: FileCachingProvider
    let instanceIDs: any CachingProvider

    func read() throws -> String? { try file.read() }
    func write(_ entry: String) throws { try file.write(entry) }
    func remove() throws { try file.remove() }
    func sizeLimit() -> Int { file.sizeLimit() }
    func instanceIDProvider() -> any CachingProvider { instanceIDs }
}
