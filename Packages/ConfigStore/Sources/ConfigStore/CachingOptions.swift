/// Whether the client keeps the values it last received on the device, and where.
///
/// ```swift
/// CachingOptions()                              // on, in the app's UserDefaults (a file on Linux)
/// CachingOptions(enabled: false)                // nothing kept
/// CachingOptions(provider: FileCachingProvider(clientSDKKey: key))
/// ```
///
/// `provider` is optional because the default provider's key is derived from the client SDK key, which
/// these options do not know: `nil` stands for ``UserDefaultsCachingProvider`` of the client's key, as
/// ``resolvedProvider(forClientSDKKey:)`` returns it.
///
/// On Linux the default is ``FileCachingProvider`` of the client's key instead, in
/// ``FileCachingProvider/defaultDirectory()`` (`$XDG_DATA_HOME` or `~/.local/share`), with its instance
/// id file next to it: Foundation's `UserDefaults` on Linux writes to disk only when `synchronize()` is
/// called and not when the process exits, so nothing it holds would survive a relaunch, and a context
/// without an id would change rollout bucket at every launch. The file provider writes each entry at
/// once, by an atomic rename, and reads it back on the next launch.
public struct CachingOptions: Sendable {
    /// Whether values are kept; `true` by default. The instance id is kept either way.
    public var enabled: Bool

    /// Where the entry is kept; `nil`, the default, for the app's `UserDefaults`.
    public var provider: (any CachingProvider)?

    /// Creates caching options.
    /// - Parameters:
    ///   - enabled: Whether values are kept; `true` by default.
    ///   - provider: Where the entry is kept; `nil` for the app's `UserDefaults` under a key derived
    ///     from the client SDK key, with a size limit of 256 KB (on Linux, a ``FileCachingProvider`` of
    ///     the key, with a size limit of 1 MB).
    public init(enabled: Bool = true, provider: (any CachingProvider)? = nil) {
        self.enabled = enabled
        self.provider = provider
    }

    /// The provider a client with the given key uses: ``provider``, or the default one for the key.
    /// - Parameter clientSDKKey: The client SDK key.
    /// - Returns: ``provider`` when it is set, else a ``UserDefaultsCachingProvider`` for the key (a
    ///   ``FileCachingProvider`` on Linux).
    func resolvedProvider(forClientSDKKey clientSDKKey: String) -> any CachingProvider {
        if let provider { return provider }
        #if canImport(Darwin)
        return UserDefaultsCachingProvider(clientSDKKey: clientSDKKey)
        #else
        return FileCachingProvider(clientSDKKey: clientSDKKey)
        #endif
    }
}
