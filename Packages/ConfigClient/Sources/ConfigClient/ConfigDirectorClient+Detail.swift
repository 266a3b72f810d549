@_spi(Internal) public import ConfigModel

extension ConfigDirectorClient {
    /// The value of a config and its evaluation, from one read: the reason, the value id, whether it is
    /// the default, and where the value came from (``ConfigEvaluation/source``).
    ///
    /// The same evaluation as ``value(for:default:)`` (counted for telemetry, published on
    /// ``evaluations``, run through the hooks), for a screen that explains what it shows.
    ///
    /// ```swift
    /// let detail = client.evaluation(for: "dark-mode", default: false)
    /// print("\(detail.value) from \(detail.evaluation.source) (\(detail.evaluation.reason.rawValue))")
    /// ```
    /// - Parameters:
    ///   - key: The config key.
    ///   - defaultValue: The value returned when the config cannot be served; it sets the type read.
    /// - Returns: The value, or `defaultValue`, and its evaluation.
    @inlinable
    public func evaluation<Value: ConfigValue>(for key: String, default defaultValue: Value)
        -> ConfigEvaluationDetail<Value>
    {
        // Inlined into the app, so that the detail is made and released as the app's own type, which
        // the SDK's code, compiled for every type, would look up at run time (benchmark 9).
        let (value, parts) = evaluation(for: key, default: defaultValue, parsing: Value.parse(_:into:))
        return parts.detail(key: key, value: value)
    }

    /// `evaluation(for:default:)` apart from making the detail: the value read, parsed with `parse` (made
    /// for the app's type), and the parts of its evaluation.
    @usableFromInline
    func evaluation<Value: ConfigValue>(
        for key: String,
        default defaultValue: Value,
        parsing parse: (String, inout Value) -> Bool
    ) -> (value: Value, parts: EvaluationParts) {
        // As in `value(for:default:)`: `hooks != nil` retains nothing.
        guard hooks != nil else { return core.evaluation(for: key, default: defaultValue, parsing: parse) }
        return hookedEvaluation(for: key, default: defaultValue, parsing: parse)
    }

    /// `evaluation(for:default:parsing:)` with the hooks, for it and `value(for:default:)`: out of line,
    /// so that the reads without hooks stay a jump to the core.
    @inline(never)
    func hookedEvaluation<Value: ConfigValue>(
        for key: String,
        default defaultValue: Value,
        parsing parse: (String, inout Value) -> Bool
    ) -> (value: Value, parts: EvaluationParts) {
        guard let hooks else { return core.evaluation(for: key, default: defaultValue, parsing: parse) }
        return core.hooked(
            key, default: defaultValue, requestedType: Value.self, hooks: hooks,
            evaluationValue: ConfigEvaluationValue.init,
            evaluate: { core.evaluation(for: key, default: defaultValue, parsing: parse) })
    }

    /// The value of a JSON config decoded as `type`, and its evaluation: the detail of
    /// ``value(for:as:default:)``.
    ///
    /// ```swift
    /// let detail = client.evaluation(for: "theme", as: Theme.self, default: Theme(primary: "#101010", cornerRadius: 8))
    /// ```
    /// - Parameters:
    ///   - key: The config key.
    ///   - type: The `Decodable` type to decode the document as.
    ///   - defaultValue: The value returned when the config is missing, not JSON, or does not decode.
    /// - Returns: The decoded value, or `defaultValue`, and its evaluation.
    public func evaluation<Value: Decodable & Sendable>(
        for key: String,
        as type: Value.Type,
        default defaultValue: Value
    ) -> ConfigEvaluationDetail<Value> {
        let (value, parts) =
            if let hooks {
                core.hooked(
                    key, default: defaultValue, requestedType: Value.self, hooks: hooks,
                    evaluationValue: ConfigEvaluationValue.init,
                    evaluate: { core.evaluation(forJSON: key, default: defaultValue) })
            } else {
                core.evaluation(forJSON: key, default: defaultValue)
            }
        return parts.detail(key: key, value: value)
    }

    /// The value of a typed config key and its evaluation: `evaluation(for: key.name, default: key.defaultValue)`.
    ///
    /// ```swift
    /// let detail = client.evaluation(for: .darkMode)
    /// ```
    /// - Parameter key: The typed key.
    /// - Returns: The served value, or the key's default value, and its evaluation.
    @inlinable
    public func evaluation<Value>(for key: ConfigKey<Value>) -> ConfigEvaluationDetail<Value> {
        evaluation(for: key.name, default: key.defaultValue)
    }

    /// The value of a typed JSON config key and its evaluation:
    /// `evaluation(for: key.name, as: Value.self, default: key.defaultValue)`.
    /// - Parameter key: The typed key.
    /// - Returns: The decoded value, or the key's default value, and its evaluation.
    public func evaluation<Value>(for key: JSONConfigKey<Value>) -> ConfigEvaluationDetail<Value> {
        evaluation(for: key.name, as: Value.self, default: key.defaultValue)
    }
}
