@_spi(Internal) public import ConfigModel

extension ConfigDirectorClient {
    /// The value of a config, read as the type of `defaultValue`.
    ///
    /// Synchronous, and never waits on the network or storage: it reads the state the client holds.
    /// Returns `defaultValue` before the client has config state, when the key is missing, or when
    /// the served value cannot be read as the type; ``evaluations`` says why.
    ///
    /// ```swift
    /// let darkMode = client.value(for: "dark-mode", default: false)
    /// ```
    /// - Parameters:
    ///   - key: The config key.
    ///   - defaultValue: The value returned when the config cannot be served; it sets the type read.
    /// - Returns: The served value, or `defaultValue`.
    @inlinable
    @discardableResult
    public func value<Value: ConfigValue>(for key: String, default defaultValue: Value) -> Value {
        // Inlined into the app, so that the served text is parsed by code made for the app's type.
        value(for: key, default: defaultValue, parsing: Value.parse(_:into:))
    }

    /// `value(for:default:)`, parsing the served text with `parse`, made for the app's type.
    @usableFromInline
    func value<Value: ConfigValue>(
        for key: String,
        default defaultValue: Value,
        parsing parse: (String, inout Value) -> Bool
    ) -> Value {
        // `hooks != nil` reads the reference without retaining it, so that the read without hooks stays a
        // jump to the core.
        guard hooks != nil else { return core.value(for: key, default: defaultValue, parsing: parse) }
        return hookedEvaluation(for: key, default: defaultValue, parsing: parse).value
    }

    /// The value of a JSON config, decoded as `type`.
    ///
    /// ```swift
    /// let theme = client.value(for: "theme", as: Theme.self, default: Theme(primary: "#101010", cornerRadius: 8))
    /// ```
    /// - Parameters:
    ///   - key: The config key.
    ///   - type: The `Decodable` type to decode the document as.
    ///   - defaultValue: The value returned when the config is missing, not JSON, or does not decode.
    /// - Returns: The decoded value, or `defaultValue`.
    @discardableResult
    public func value<Value: Decodable & Sendable>(
        for key: String,
        as type: Value.Type,
        default defaultValue: Value
    ) -> Value {
        guard hooks != nil else { return core.value(forJSON: key, default: defaultValue) }
        return evaluation(for: key, as: type, default: defaultValue).value
    }

    /// The value of a JSON config, decoded as `type` on the main actor: for a type whose `Decodable`
    /// conformance is isolated to the main actor, as a type declared in an app target isolated to the
    /// main actor by default (Xcode 26's template) has.
    ///
    /// ```swift
    /// struct Theme: Decodable {  // in a target with .defaultIsolation(MainActor.self)
    ///     let primary: String
    ///     let cornerRadius: Double
    /// }
    ///
    /// let theme = client.value(for: "theme", as: Theme.self, default: Theme(primary: "#101010", cornerRadius: 8))
    /// ```
    ///
    /// The document is decoded on the main actor, at each read (a `Sendable` type's decode is kept
    /// between reads instead, by the other overload, which Swift picks for such a type). The evaluation is
    /// counted and published as any other, but the `evaluations` stream and the hooks, which run on other
    /// threads, are given the served document as a `String` in place of the decoded value.
    /// - Parameters:
    ///   - key: The config key.
    ///   - type: The `Decodable` type to decode the document as.
    ///   - defaultValue: The value returned when the config is missing, not JSON, or does not decode.
    /// - Returns: The decoded value, or `defaultValue`.
    @MainActor
    @discardableResult
    public func value<Value: Decodable>(for key: String, as type: Value.Type, default defaultValue: Value) -> Value {
        core.value(forIsolatedJSON: key, default: defaultValue, hooks: hooks)
    }
}
