@_spi(Internal) internal import ConfigModel

/// Where the values a client serves come from.
///
/// A set of named values rather than an enum, so that a source added later (as ``override`` was) breaks
/// no `switch` of an app: match the sources you care about and end with `default:`.
public struct ConfigValueSource: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    enum Storage: UInt8, Sendable {
        case none, bundledValues, keptValues, live, override
    }

    @usableFromInline let storage: Storage

    @inlinable
    init(_ storage: Storage) { self.storage = storage }

    /// No values yet: every evaluation returns its default value.
    @inlinable public static var none: Self { Self(.none) }
    /// Values the app ships (``ConfigDirectorClientOptions/bundledValues``), served until values kept on
    /// the device or live values arrive.
    @inlinable public static var bundledValues: Self { Self(.bundledValues) }
    /// Values kept on the device from an earlier launch, served until live values arrive (stale).
    @inlinable public static var keptValues: Self { Self(.keptValues) }
    /// Values received from ConfigDirector (or given for offline mode) in this launch.
    @inlinable public static var live: Self { Self(.live) }
    /// A local override set on this device (see `ConfigDirectorClient.setOverride(_:for:)`): the source of one
    /// evaluation of an overridden key, never of the client's ``ConfigDirectorClient/valueSource``.
    @inlinable public static var override: Self { Self(.override) }

    /// The source's name: `none`, `bundledValues`, `keptValues`, `live` or `override`.
    public var description: String {
        switch storage {
        case .none: "none"
        case .bundledValues: "bundledValues"
        case .keptValues: "keptValues"
        case .live: "live"
        case .override: "override"
        }
    }
}

extension ConfigValueSource {
    /// Whether values kept on the device replace the values served: nothing, or bundled values.
    var yieldsToKeptValues: Bool { self == .none || self == .bundledValues }

    /// The source of a value served while the client serves this one's values.
    var ofAValueServed: ConfigEvaluation.Source {
        switch storage {
        case .live: .live
        case .keptValues: .keptValues
        case .bundledValues: .bundledValues
        case .override: .override
        // A value is served only from values: the client holds none only before any arrived.
        case .none: .codeDefault
        }
    }
}
