extension ConfigState {
    /// The served text as a reader of one kind sees it, before it is parsed.
    public enum ReadableText: Sendable, Hashable {
        /// The text to parse.
        case text(String)
        /// Why the kind cannot read the config: ``EvaluationReason/valueMissing`` or
        /// ``EvaluationReason/typeMismatch``.
        case unreadable(EvaluationReason)
    }

    /// The first two checks of reading a config as a type (PROTOCOL §8), without generics: a missing or
    /// empty value, then a config type that `kind` cannot read. A reader then parses the text and, when the parse fails,
    /// evaluates with `kind`'s ``ConfigValueKind/invalidValueReason``.
    /// - Parameter kind: The kind of the type reading the config.
    /// - Returns: The text to parse, or the reason it cannot be read.
    public func text(readableAs kind: ConfigValueKind) -> ReadableText {
        Self.text(value, of: type, readableAs: kind)
    }

    /// ``text(readableAs:)`` for a value and a config type held apart from a config.
    /// - Parameters:
    ///   - value: The served value.
    ///   - type: The config type.
    ///   - kind: The kind of the type reading the config.
    /// - Returns: The text to parse, or the reason it cannot be read.
    public static func text(_ value: String?, of type: ConfigType, readableAs kind: ConfigValueKind) -> ReadableText {
        guard let value, !value.isEmpty else { return .unreadable(.valueMissing) }
        guard kind.canRead(type) else { return .unreadable(.typeMismatch) }
        return .text(value)
    }
}
