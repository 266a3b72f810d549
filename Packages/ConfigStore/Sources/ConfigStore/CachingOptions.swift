/// Whether the client keeps the values it last received on the device, and where.
///
/// ```swift
/// CachingOptions()                              // on, in the app's UserDefaults
/// CachingOptions(enabled: false)                // nothing kept
/// CachingOptions(provider: FileCachingProvider(clientSDKKey: key))
/// ```
///
/// `provider` is optional because the default provider's key is derived from the client SDK key, which
/// these options do not know: `nil` stands for ``UserDefaultsCachingProvider`` of the client's key, as
/// ``resolvedProvider(forClientSDKKey:)`` returns it.
public struct CachingOptions: Sendable {
    /// Whether values are kept; `true` by default. The instance id is kept either way.
    public var enabled: Bool

    /// Where the entry is kept; `nil`, the default, for the app's `UserDefaults`.
    public var provider: (any CachingProvider)?

    /// Creates caching options.
    /// - Parameters:
    ///   - enabled: Whether values are kept; `true` by default.
    ///   - provider: Where the entry is kept; `nil` for the app's `UserDefaults` under a key derived
    ///     from the client SDK key, with a size limit of 256 KB.
    public init(enabled: Bool = true, provider: (any CachingProvider)? = nil) {
        self.enabled = enabled
        self.provider = provider
    }

    /// The provider a client with the given key uses: ``provider``, or the default one for the key.
    /// - Parameter clientSDKKey: The client SDK key.
    /// - Returns: ``provider`` when it is set, else a ``UserDefaultsCachingProvider`` for the key.
    @_spi(Internal) public func resolvedProvider(forClientSDKKey clientSDKKey: String) -> any CachingProvider {
        provider ?? UserDefaultsCachingProvider(clientSDKKey: clientSDKKey)
    }
}
