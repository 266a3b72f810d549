/// Where the SDK keeps the values it last received, so that they can be served on the next launch.
///
/// Implement it to supply your own store. The entry is one string whose format belongs to the SDK.
/// Throw from any method when the storage fails: the SDK logs the failure once and goes on without it.
/// The SDK calls a provider on a background thread, never on the thread that evaluates configs nor on the
/// main thread; two clients with the same provider may call it at the same time. A call that has not
/// returned within 5 s is given up on: the client goes on without its result, and makes no other call to
/// the provider until it returns.
public protocol CachingProvider: Sendable {
    /// Reads the stored entry, or `nil` when there is none.
    /// - Throws: When the storage cannot be read.
    func read() throws -> String?

    /// Replaces the stored entry.
    /// - Parameter entry: The entry to keep.
    /// - Throws: When the storage cannot be written.
    func write(_ entry: String) throws

    /// Removes the stored entry; removing a missing entry is not an error.
    /// - Throws: When the storage cannot be changed.
    func remove() throws

    /// The largest entry, in UTF-8 bytes, the provider keeps; a larger one is not written.
    func sizeLimit() -> Int

    /// The provider of the entry that keeps this install's instance id, next to the values' entry.
    ///
    /// The instance id is a UUID the server derives the id of a context without one from; it is kept
    /// even when caching values is turned off. The default keeps it in the app's standard `UserDefaults`
    /// under ``UserDefaultsCachingProvider/instanceIDKey`` (on Linux, where `UserDefaults` does not
    /// outlive the process, in the `instance-id` file of ``FileCachingProvider/defaultDirectory()``);
    /// implement it to keep it in your own storage.
    ///
    /// When its `read()` throws (a keychain or a protected file before the device's first unlock), the
    /// client uses a new id until it is released and writes nothing: the id kept is read again on the next
    /// launch. A read that returns `nil`, or text that is not a UUID, has a new id written in its place.
    /// - Returns: A provider whose entry is the instance id; it must not share its entry with this provider.
    func instanceIDProvider() -> any CachingProvider
}

extension CachingProvider {
    /// The app's standard `UserDefaults`, under ``UserDefaultsCachingProvider/instanceIDKey``; on Linux,
    /// the `instance-id` file of ``FileCachingProvider/defaultDirectory()``.
    public func instanceIDProvider() -> any CachingProvider {
        #if canImport(Darwin)
        UserDefaultsCachingProvider.standardInstanceIDProvider()
        #else
        FileCachingProvider.defaultInstanceIDProvider()
        #endif
    }
}
