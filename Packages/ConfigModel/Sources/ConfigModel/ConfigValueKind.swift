/// The kind of value a ``ConfigValue`` type reads, which decides the config types it can be read from.
public enum ConfigValueKind: Sendable, Hashable, CaseIterable {
    /// Read from boolean, string and custom configs; the text must be `true` or `false`, in any case.
    case boolean
    /// Read from string, enum, url, custom and json configs, as the text is.
    case string
    /// Read from integer, float, enum, string and custom configs; the text must be a finite decimal number.
    case number

    /// Whether a config of `type` can be read as this kind (PROTOCOL §8).
    /// - Parameter type: The config's declared type.
    /// - Returns: `true` when the value is parsed; `false` gives ``EvaluationReason/typeMismatch``.
    func canRead(_ type: ConfigType) -> Bool {
        switch (self, type) {
        case (.boolean, .boolean), (.boolean, .string), (.boolean, .custom): true
        case (.string, .string), (.string, .enum), (.string, .url), (.string, .custom), (.string, .json): true
        case (.number, .integer), (.number, .float), (.number, .enum), (.number, .string), (.number, .custom): true
        default: false
        }
    }

    /// The reason given when a value of this kind does not parse.
    @_spi(Internal) public var invalidValueReason: EvaluationReason {
        switch self {
        case .boolean: .invalidBoolean
        case .string: .typeMismatch
        case .number: .invalidNumber
        }
    }
}
