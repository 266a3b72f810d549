@_spi(Internal) public import ConfigModel

/// Every config a client holds, read at once, with where each value came from and why: what a debug screen, a
/// log line or a crash reporter's breadcrumb needs.
///
/// Taking a snapshot records no evaluation (telemetry does not count it, `evaluations` does not publish it)
/// and runs no hook.
///
/// ```swift
/// for config in client.snapshot().configs {
///     print(config.key, config.value ?? "no value", config.source)
/// }
/// ```
public struct ConfigSnapshot: Sendable, Equatable {
    /// The context the configs were evaluated for.
    public var context: ConfigDirectorContext?
    /// Where the client's values come from (overrides aside).
    public var valueSource: ConfigValueSource
    /// Whether config state had arrived for the context, as ``ConfigDirectorClient/isReady`` tells.
    public var isReady: Bool
    /// Every config held, overrides included, in key order.
    public var configs: [Config]

    /// One config of a snapshot.
    public struct Config: Sendable, Hashable, Identifiable {
        /// The config key.
        public var key: String
        /// The config's type.
        public var type: ConfigType
        /// The value as served text, or `nil` when the config has no value for the context.
        public var value: String?
        /// The served value's id (PROTOCOL §7), or `nil` when it has no value.
        public var valueID: String?
        /// Why a read of the config as its own type returns what it does: `EvaluationReason.foundMatch`, or
        /// `EvaluationReason.valueMissing` when it has no value.
        public var reason: EvaluationReason
        /// Where the value came from, as an evaluation tells it: `ConfigEvaluation.Source.override` for a local
        /// override, `ConfigEvaluation.Source.codeDefault` when the config has no value.
        public var source: ConfigEvaluation.Source

        /// The config key.
        public var id: String { key }

        /// Creates a config of a snapshot.
        /// - Parameters:
        ///   - key: The config key.
        ///   - type: The config's type.
        ///   - value: The value as served text, or `nil`.
        ///   - valueID: The value's id, or `nil`.
        ///   - reason: Why a read returns what it does.
        ///   - source: Where the value came from.
        public init(
            key: String,
            type: ConfigType,
            value: String?,
            valueID: String?,
            reason: EvaluationReason,
            source: ConfigEvaluation.Source
        ) {
            self.key = key
            self.type = type
            self.value = value
            self.valueID = valueID
            self.reason = reason
            self.source = source
        }
    }

    /// Creates a snapshot.
    /// - Parameters:
    ///   - context: The context the configs were evaluated for.
    ///   - valueSource: Where the client's values come from.
    ///   - isReady: Whether config state had arrived for the context.
    ///   - configs: The configs, in key order.
    public init(context: ConfigDirectorContext?, valueSource: ConfigValueSource, isReady: Bool, configs: [Config]) {
        self.context = context
        self.valueSource = valueSource
        self.isReady = isReady
        self.configs = configs
    }

    /// The config of `key`, if the client holds one.
    public subscript(key: String) -> Config? {
        configs.first { $0.key.utf8.elementsEqual(key.utf8) }
    }
}
