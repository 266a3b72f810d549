@_spi(Internal) public import ConfigModel

extension ConfigDirectorClient {
    /// Serves `value` for `key` on this device, over every value the client would serve otherwise.
    ///
    /// Every read of the key returns it (when it reads as the requested type) with the source
    /// `ConfigEvaluation.Source.override` and the reason `EvaluationReason.foundMatch`; its `values(for:)`
    /// streams, observed configs and the OpenFeature provider see the change (a `configsUpdated` event names the
    /// key), and telemetry does not count its reads (they are not evaluations of what ConfigDirector served).
    /// Ignored, with one warning in the log, unless ``ConfigDirectorClientOptions/overrides`` turns overrides on.
    ///
    /// ```swift
    /// client.setOverride(true, for: "new-checkout")
    /// client.setOverride(3, for: "max-items")
    /// client.setOverride(["theme": "dark", "radius": 8], for: "layout")
    /// ```
    /// - Parameters:
    ///   - value: The value: a `Bool` is served as a boolean config, an `Int` an integer, a `Double` a float, a
    ///     `String` a string config; a type of yours as its `ConfigValue.configValueText`, a config of the
    ///     type its `ConfigValue.configValueKind` reads.
    ///   - key: The config key.
    public func setOverride<Value: ConfigValue>(_ value: Value, for key: String) {
        let text = value.configValueText
        let type: ConfigType =
            switch Value.configValueKind {
            case .boolean: .boolean
            case .number: Int(text) != nil ? .integer : .float
            case .string: .string
            }
        core.setOverride(ConfigOverride(key: key, type: type, value: text))
    }

    /// Serves `value` for `key` on this device, as ``setOverride(_:for:)-(Value,_)`` does; a JSON object or array
    /// is served as a JSON config.
    /// - Parameters:
    ///   - value: The value, written as a literal; a float must be finite.
    ///   - key: The config key.
    public func setOverride(_ value: ServedValue, for key: String) {
        if let problem = value.problem(forKey: key) {
            guard core.overridesAllowChanges() else { return }
            core.logger.error("Local overrides: the override of '\(key)' is ignored: \(problem).")
            return
        }
        core.setOverride(ConfigOverride(key: key, type: value.configType, value: value.text))
    }

    /// Serves the JSON document `jsonText` for `key` on this device as a JSON config, as
    /// ``setOverride(_:for:)-(Value,_)`` does.
    /// - Parameters:
    ///   - jsonText: The document: an object, an array, or any other JSON value.
    ///   - key: The config key.
    /// - Returns: `false` when the text is not JSON (logged, and nothing changes) or overrides are off.
    @discardableResult
    public func setOverride(jsonText: String, for key: String) -> Bool {
        guard core.overridesAllowChanges() else { return false }
        guard let document = try? JSONValue(parsing: jsonText) else {
            core.logger.error("Local overrides: the override of '\(key)' is not JSON; it is ignored.")
            return false
        }
        core.setOverride(ConfigOverride(key: key, type: .json, value: document.jsonText))
        return true
    }

    /// Removes the override of `key`: the value the client would serve otherwise is served again.
    /// - Parameter key: The config key.
    public func removeOverride(for key: String) {
        core.removeOverride(for: key)
    }

    /// Removes every override, those of the launch arguments and environment too.
    public func removeAllOverrides() {
        core.removeAllOverrides()
    }

    /// Whether overrides can be set: whether ``ConfigDirectorClientOptions/overrides`` turned them on.
    public var areOverridesEnabled: Bool { core.dependencies.localOverrides.options.isEnabled }

    /// The overrides in force, by key order.
    public var overrides: [ConfigOverride] {
        core.overrides.sorted { $0.key < $1.key }.map { ConfigOverride(key: $0.key.name, state: $0.value) }
    }
}
