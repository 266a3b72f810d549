@_spi(Internal) @_spi(Locking) internal import ConfigModel
public import Foundation

/// The default ``CachingProvider``: one entry in the app's `UserDefaults`.
///
/// The entry's key is ``keyPrefix`` followed by the lowercase hexadecimal SHA-256 of the client SDK key,
/// so each environment has its own entry and the raw key is never stored. The size limit is 256 KB:
/// `UserDefaults` loads every entry into memory when the app launches.
public final class UserDefaultsCachingProvider: CachingProvider, SizeBoundedReading, @unchecked Sendable {
    // `@unchecked`: corelibs Foundation does not declare `UserDefaults` `Sendable`; `defaults` is reached
    // only through its `Locked`, which guards every use, and the other stored properties are `let`s.
    /// The start of every entry's key, followed by the SHA-256 of the client SDK key.
    public static let keyPrefix = "com.configdirector.cache."

    /// The key of the instance id's entry, shared by every client of the app.
    public static let instanceIDKey = "com.configdirector.instance-id"

    /// The size limit of the default provider, in bytes.
    public static let defaultSizeLimit = 256 * 1024

    /// The key this provider keeps its entry under.
    public let key: String

    private let defaults: Locked<UserDefaults>
    private let limit: Int

    /// Creates the provider of a client's entry.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key; only its SHA-256 is used.
    ///   - defaults: Where the entry is kept; the app's standard `UserDefaults` by default.
    ///   - sizeLimit: The largest entry kept, in bytes; 256 KB by default.
    public convenience init(
        clientSDKKey: String,
        defaults: UserDefaults = .standard,
        sizeLimit: Int = defaultSizeLimit
    ) {
        let key = Self.keyPrefix + SHA256Digest.hexHash(of: clientSDKKey)
        self.init(key: key, defaults: Locked(defaults), sizeLimit: sizeLimit)
    }

    private init(key: String, defaults: Locked<UserDefaults>, sizeLimit: Int) {
        self.key = key
        self.defaults = defaults
        limit = sizeLimit
    }

    /// The provider of the instance id kept in the app's standard `UserDefaults`.
    static func standardInstanceIDProvider() -> UserDefaultsCachingProvider {
        UserDefaultsCachingProvider(key: instanceIDKey, defaults: Locked(.standard), sizeLimit: 1024)
    }

    /// The string kept under ``key``, if any.
    public func read() -> String? {
        defaults.withLock { $0.string(forKey: key) }
    }

    /// The string kept under ``key``, or its size when above `limit` bytes, counted in place.
    func read(upTo limit: Int) -> BoundedEntry {
        defaults.withLock { defaults in
            guard let text = defaults.string(forKey: key) else { return .absent }
            let size = text.utf8.count
            return size > limit ? .tooLarge(size) : .entry(text)
        }
    }

    /// Keeps `entry` under ``key``; on Linux, written to disk at once.
    public func write(_ entry: String) {
        defaults.withLock { defaults in
            defaults.set(entry, forKey: key)
            Self.persist(defaults)
        }
    }

    /// Removes the entry under ``key``; on Linux, written to disk at once.
    public func remove() {
        defaults.withLock { defaults in
            defaults.removeObject(forKey: key)
            Self.persist(defaults)
        }
    }

    /// Foundation's `UserDefaults` on Linux reaches the disk only on `synchronize()`, never when the
    /// process exits; Apple platforms persist on their own.
    private static func persist(_ defaults: UserDefaults) {
        #if !canImport(Darwin)
        defaults.synchronize()
        #endif
    }

    /// The size limit given at creation.
    public func sizeLimit() -> Int { limit }

    /// The provider of ``instanceIDKey`` in the same `UserDefaults`.
    public func instanceIDProvider() -> any CachingProvider {
        UserDefaultsCachingProvider(key: Self.instanceIDKey, defaults: defaults, sizeLimit: 1024)
    }
}
