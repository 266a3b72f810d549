extension ConfigEvaluation {
    /// Where the value of one evaluation came from.
    ///
    /// A set of named values rather than an enum, so that a source added later (as ``override`` was) breaks
    /// no `switch` of an app: match the sources you care about and end with `default:`.
    ///
    /// ```swift
    /// switch client.evaluation(for: "dark-mode", default: false).evaluation.source {
    /// case .override: print("forced on this device")
    /// case .codeDefault: print("the default in code")
    /// default: print("served")
    /// }
    /// ```
    public struct Source: Sendable, Hashable, CustomStringConvertible {
        @usableFromInline
        enum Storage: UInt8, Sendable {
            case live, keptValues, bundledValues, codeDefault, override
        }

        @usableFromInline let storage: Storage

        @inlinable
        init(_ storage: Storage) { self.storage = storage }

        /// Values received from ConfigDirector (or given for offline mode) in this launch.
        @inlinable public static var live: Self { Self(.live) }
        /// Values kept on the device from an earlier launch, served until live values arrive.
        @inlinable public static var keptValues: Self { Self(.keptValues) }
        /// Values the app ships, served until values kept on the device or live values arrive.
        @inlinable public static var bundledValues: Self { Self(.bundledValues) }
        /// The default value given in code: ``ConfigEvaluation/isDefaultValue`` is `true`.
        @inlinable public static var codeDefault: Self { Self(.codeDefault) }
        /// A local override set on this device, which wins over every other value (see the client's
        /// `setOverride(_:for:)`); the evaluation's reason is ``EvaluationReason/foundMatch``.
        @inlinable public static var override: Self { Self(.override) }

        /// The source's name: `live`, `keptValues`, `bundledValues`, `codeDefault` or `override`.
        public var description: String {
            switch storage {
            case .live: "live"
            case .keptValues: "keptValues"
            case .bundledValues: "bundledValues"
            case .codeDefault: "codeDefault"
            case .override: "override"
            }
        }
    }
}
